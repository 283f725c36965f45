import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';

type Tx = Prisma.TransactionClient;

/** A bot's draft and which version is published. */
export interface BotDefinitionState {
  draft: Prisma.JsonValue | null;
  draftUpdatedAt: Date | null;
  /** null: the bot is not hosted (an outside, webhook bot). */
  publishedVersion: number | null;
}

/** A published version as listed (without its document). */
export interface BotVersionSummary {
  version: number;
  createdAt: Date;
  note: string | null;
  publishedBy: string | null;
}

export interface BotVersionRecord extends BotVersionSummary {
  definition: Prisma.JsonValue;
}

/**
 * A hosted bot's definition: the draft, its immutable published versions, and the pointer at the one
 * new conversations start on. Whether a bot is hosted is read from Postgres on every use (several
 * gateway replicas; nothing is cached in memory).
 */
@Injectable()
export class BotDefinitionRepository {
  constructor(private readonly db: PrismaService) {}

  /** Null when the bot never had a definition. */
  async find(botId: string): Promise<BotDefinitionState | null> {
    return this.db.botDefinitionDraft.findUnique({ where: { botId }, select: { draft: true, draftUpdatedAt: true, publishedVersion: true } });
  }

  /**
   * Who answers the bot's users: its runtime (`hosted`: a published version) and/or its webhook; null
   * when there is no such bot. One statement, asked on every session start.
   */
  async whoAnswers(botId: string): Promise<{ hosted: boolean; webhook: boolean } | null> {
    const { rows } = await this.db.pool.query<{ hosted: boolean; webhook: boolean }>({
      name: 'bot-who-answers',
      text: `SELECT EXISTS (SELECT 1 FROM "bot_definitions" d WHERE d."bot_id" = b."id" AND d."published_version" IS NOT NULL) AS hosted,
                    EXISTS (SELECT 1 FROM "callback_endpoints" e WHERE e."bot_id" = b."id" AND e."kind" = 'webhook') AS webhook
               FROM "bots" b WHERE b."id" = $1::uuid`,
      values: [botId],
    });
    return rows[0] ?? null;
  }

  /** The published version, or null when the bot is not hosted: one indexed read, asked on every inbound message. */
  async publishedVersion(botId: string): Promise<number | null> {
    const { rows } = await this.db.query<{ v: number | null }>({
      name: 'bot-definitions-published-version',
      text: 'SELECT "published_version" AS v FROM "bot_definitions" WHERE "bot_id" = $1::uuid',
      values: [botId],
    });
    return rows[0]?.v ?? null;
  }

  /** Replaces the draft (the caller validated it). */
  async saveDraft(botId: string, draft: Prisma.InputJsonValue): Promise<Date> {
    const now = new Date();
    await this.db.botDefinitionDraft.upsert({ where: { botId }, create: { botId, draft, draftUpdatedAt: now }, update: { draft, draftUpdatedAt: now } });
    return now;
  }

  /**
   * Publishes the draft as the next version and points the bot at it, in one transaction. `check`
   * sees the draft under the row lock (so a concurrent save cannot slip in between the check and the
   * copy) and throws to refuse it. Null when there is no draft.
   */
  async publishDraft(botId: string, by: string | null, note: string | null, check: (draft: Prisma.JsonValue) => void): Promise<number | null> {
    return this.db.$transaction(async (tx) => {
      const row = await this.lock(tx, botId);
      if (!row || row.draft === null) return null;
      check(row.draft);
      return this.addVersion(tx, botId, row.draft as Prisma.InputJsonValue, by, note);
    });
  }

  /** Saves `definition` as the draft and publishes it as the next version, in one transaction (a deploy). */
  async saveAndPublish(botId: string, definition: Prisma.InputJsonValue, by: string | null, note: string | null): Promise<number> {
    return this.db.$transaction(async (tx) => {
      const now = new Date();
      // The upsert takes the row's lock: concurrent publishes of one bot number their versions one after the other.
      await tx.botDefinitionDraft.upsert({ where: { botId }, create: { botId, draft: definition, draftUpdatedAt: now }, update: { draft: definition, draftUpdatedAt: now } });
      return this.addVersion(tx, botId, definition, by, note);
    });
  }

  /** Every version, newest first, and the published one. */
  async listVersions(botId: string): Promise<{ versions: BotVersionSummary[]; publishedVersion: number | null }> {
    const [versions, state] = await Promise.all([
      this.db.botVersion.findMany({ where: { botId, version: { gt: 0 } }, orderBy: { version: 'desc' }, select: { version: true, createdAt: true, note: true, publishedBy: true } }),
      this.publishedVersion(botId),
    ]);
    return { versions, publishedVersion: state };
  }

  findVersion(botId: string, version: number): Promise<BotVersionRecord | null> {
    return this.db.botVersion.findUnique({
      where: { botId_version: { botId, version } },
      select: { version: true, createdAt: true, note: true, publishedBy: true, definition: true },
    });
  }

  /** Points the bot at an existing version (new conversations start on it); false when there is no such version. */
  async rollback(botId: string, version: number): Promise<boolean> {
    const count = await this.db.$executeRaw`
      UPDATE "bot_definitions" SET "published_version" = ${version}, "updated_at" = now()
      WHERE "bot_id" = ${botId}::uuid AND EXISTS (SELECT 1 FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" = ${version})`;
    return count === 1;
  }

  /** The bot is an outside (webhook) bot again; its versions stay. False when nothing was published. */
  async unpublish(botId: string): Promise<boolean> {
    const { count } = await this.db.botDefinitionDraft.updateMany({ where: { botId, publishedVersion: { not: null } }, data: { publishedVersion: null } });
    return count === 1;
  }

  private async lock(tx: Tx, botId: string): Promise<{ draft: Prisma.JsonValue | null } | undefined> {
    const rows = await tx.$queryRaw<Array<{ draft: Prisma.JsonValue | null }>>`SELECT "draft" FROM "bot_definitions" WHERE "bot_id" = ${botId}::uuid FOR UPDATE`;
    return rows[0];
  }

  /** Under the bot_definitions row's lock: the next number, the immutable copy, the pointer. */
  private async addVersion(tx: Tx, botId: string, definition: Prisma.InputJsonValue, by: string | null, note: string | null): Promise<number> {
    const last = await tx.botVersion.aggregate({ where: { botId, version: { gt: 0 } }, _max: { version: true } });
    const version = (last._max.version ?? 0) + 1;
    await tx.botVersion.create({ data: { botId, version, definition, publishedBy: by, note } });
    await tx.botDefinitionDraft.update({ where: { botId }, data: { publishedVersion: version } });
    return version;
  }
}
