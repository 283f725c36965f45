import { INestApplicationContext } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';
import { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';

/**
 * Every column that holds a value sealed with SecretBox (ENCRYPTION_KEYS). A key can leave the
 * keyring only when none of these still names it. Add a column here when a feature stores a new
 * kind of secret.
 */
export const SEALED_COLUMNS = [
  { kind: 'pushConfigs', label: 'Firebase service accounts (push configs)', table: 'push_configs', column: 'credentials_encrypted', keyIdColumn: 'key_id' },
  { kind: 'senderAccessTokens', label: 'WhatsApp sender access tokens', table: 'channel_senders', column: 'access_token_encrypted' },
  { kind: 'webhookSecrets', label: 'bot webhook signing secrets', table: 'callback_secrets', column: 'secret_encrypted' },
  { kind: 'previousWebhookSecrets', label: 'bot webhook signing secrets being rotated out', table: 'callback_secrets', column: 'previous_secret_encrypted' },
  // No id column: a row is named by its bot and the secret's name.
  { kind: 'botSecrets', label: 'hosted bot secrets (http nodes)', table: 'bot_secrets', column: 'value_encrypted', keyIdColumn: 'key_id', rowKey: `("bot_id"::text || '/' || "name")` },
] as const satisfies ReadonlyArray<{ kind: string; label: string; table: string; column: string; keyIdColumn?: string; rowKey?: string }>;

export type SealedSecretKind = (typeof SEALED_COLUMNS)[number]['kind'];

export interface SealedKindResult {
  /** Values now sealed under the active key. */
  reencrypted: number;
  /** Values written again while this ran (by an app, already under its active key). */
  changedMeanwhile: number;
  /** Values that could not be opened with this keyring (row id and why); left as they are. */
  unreadable: Array<{ id: string; reason: string }>;
}

export interface ReencryptSecretsResult {
  activeKeyId: string;
  kinds: Record<SealedSecretKind, SealedKindResult>;
  /** After the run: how many stored values each other key still seals (empty when the old keys can go). */
  stillUnderOtherKeys: Record<string, number>;
}

const PAGE = 100;

/**
 * Key rotation: re-seals every stored secret (push configs, WhatsApp sender access tokens, bot
 * webhook signing secrets, hosted bots' secrets) that is not under the active key. Each value is swapped only if nobody
 * wrote a new one meanwhile, so it is safe while the apps run and safe to run again. Values the
 * keyring cannot open are reported, not touched. `app` is any Nest context with DatabaseModule and
 * CryptoModule (the CLI, an app).
 */
export async function reencryptSecrets(app: INestApplicationContext): Promise<ReencryptSecretsResult> {
  const db = app.get(PrismaService, { strict: false });
  const box = app.get(SecretBox, { strict: false });
  const active = box.activeKeyId;
  const kinds = {} as Record<SealedSecretKind, SealedKindResult>;
  for (const c of SEALED_COLUMNS) {
    const result: SealedKindResult = { reencrypted: 0, changedMeanwhile: 0, unreadable: [] };
    kinds[c.kind] = result;
    const table = Prisma.raw(`"${c.table}"`);
    const column = Prisma.raw(`"${c.column}"`);
    const setKeyId = 'keyIdColumn' in c ? Prisma.sql`, ${Prisma.raw(`"${c.keyIdColumn}"`)} = ${active}` : Prisma.empty;
    const rowKey = Prisma.raw('rowKey' in c ? c.rowKey : '"id"');
    const keyType = Prisma.raw('rowKey' in c ? 'text' : 'uuid');
    let cursor: string | null = null;
    for (;;) {
      const after: Prisma.Sql = cursor === null ? Prisma.empty : Prisma.sql`AND ${rowKey} > ${cursor}::${keyType}`;
      const rows = await db.$queryRaw<Array<{ id: string; sealed: string }>>`
        SELECT ${rowKey}::text AS "id", ${column} AS "sealed" FROM ${table}
        WHERE ${column} IS NOT NULL AND split_part(${column}, '.', 2) <> ${active} ${after}
        ORDER BY ${rowKey} LIMIT ${PAGE}`;
      if (rows.length === 0) break;
      for (const row of rows) {
        let resealed: string;
        try {
          resealed = box.encrypt(box.decrypt(row.sealed));
        } catch (err) {
          result.unreadable.push({ id: row.id, reason: (err as Error).message });
          continue;
        }
        const swapped = await db.$executeRaw`
          UPDATE ${table} SET ${column} = ${resealed} ${setKeyId}
          WHERE ${rowKey} = ${row.id}::${keyType} AND ${column} = ${row.sealed}`;
        if (swapped === 1) result.reencrypted++;
        else result.changedMeanwhile++;
      }
      cursor = rows[rows.length - 1].id;
    }
  }
  return { activeKeyId: active, kinds, stillUnderOtherKeys: await countUnderOtherKeys(db, active) };
}

/** Stored sealed values per key id other than `activeKeyId`, over every sealed column. */
export async function countUnderOtherKeys(db: PrismaService, activeKeyId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const c of SEALED_COLUMNS) {
    const column = Prisma.raw(`"${c.column}"`);
    const rows = await db.$queryRaw<Array<{ key_id: string; n: number }>>`
      SELECT split_part(${column}, '.', 2) AS "key_id", count(*)::int AS "n" FROM ${Prisma.raw(`"${c.table}"`)}
      WHERE ${column} IS NOT NULL AND split_part(${column}, '.', 2) <> ${activeKeyId}
      GROUP BY 1`;
    for (const r of rows) counts[r.key_id] = (counts[r.key_id] ?? 0) + r.n;
  }
  return counts;
}
