import { INestApplicationContext, Injectable } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';
import { PrismaService } from '../prisma.service.js';

@Injectable()
export class PushConfigRepository {
  constructor(private readonly db: PrismaService) {}

  /** Creates or replaces the bot's service account; `version` grows on each save (cached access tokens key on it). */
  save(botId: string, data: { projectId: string; credentialsEncrypted: string; keyId: string }) {
    return this.db.pushConfig.upsert({
      where: { botId },
      create: { botId, ...data },
      update: { ...data, version: { increment: 1 } },
    });
  }

  findByBot(botId: string) {
    return this.db.pushConfig.findUnique({ where: { botId } });
  }

  /** Up to `limit` configs sealed under a key other than `keyId`, oldest first. */
  listNotUnderKey(keyId: string, limit: number) {
    return this.db.pushConfig.findMany({ where: { keyId: { not: keyId } }, orderBy: { id: 'asc' }, take: limit });
  }

  /** Swaps the sealed document only if nobody saved a new one meanwhile (false then); saved-at is kept. */
  async reseal(id: string, previous: string, next: { credentialsEncrypted: string; keyId: string }): Promise<boolean> {
    const count = await this.db.$executeRaw`
      UPDATE "push_configs" SET "credentials_encrypted" = ${next.credentialsEncrypted}, "key_id" = ${next.keyId}
      WHERE "id" = ${id}::uuid AND "credentials_encrypted" = ${previous}`;
    return count === 1;
  }
}

export interface ReencryptResult {
  /** Configs now sealed under the active key. */
  reencrypted: number;
  /** Configs saved again while this ran (already under the active key). */
  changedMeanwhile: number;
  activeKeyId: string;
}

/**
 * Re-seals every push config that is not under the active key (key rotation): run it after adding a
 * new key to ENCRYPTION_KEYS and making it ENCRYPTION_ACTIVE_KEY_ID; afterwards the old key can go.
 * `app` is any Nest application context with DatabaseModule and CryptoModule (gateway, push service, CLI).
 */
export async function reencryptPushConfigs(app: INestApplicationContext): Promise<ReencryptResult> {
  const repo = app.get(PushConfigRepository, { strict: false });
  const box = app.get(SecretBox, { strict: false });
  const result: ReencryptResult = { reencrypted: 0, changedMeanwhile: 0, activeKeyId: box.activeKeyId };
  for (;;) {
    const rows = await repo.listNotUnderKey(box.activeKeyId, 100);
    if (rows.length === 0) return result;
    for (const row of rows) {
      const sealed = box.encrypt(box.decrypt(row.credentialsEncrypted));
      const swapped = await repo.reseal(row.id, row.credentialsEncrypted, { credentialsEncrypted: sealed, keyId: box.activeKeyId });
      if (swapped) result.reencrypted++;
      else result.changedMeanwhile++;
    }
  }
}
