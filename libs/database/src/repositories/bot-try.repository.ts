import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';

/** Test versions and conversations kept per bot: older ones are removed when a new test starts. */
export const KEPT_TEST_VERSIONS = 10;

export interface TryMessageRow {
  id: string;
  direction: string;
  type: string;
  content: Prisma.JsonValue;
  status: string | null;
  createdAt: Date;
}

/**
 * The builder's try-it (docs/console.md#try-it): the bot's saved draft runs on the real runtime in a test
 * conversation. The draft is snapshotted as a test version, a negative number in `bot_versions` (versions
 * are immutable and the runtime caches them by number, so each test takes a new one from a sequence), and the
 * conversation's `test_version` makes the runtime start it on that version instead of the published one.
 * Test conversations are web conversations of no chat user (`builder-test:<uuid>`).
 */
@Injectable()
export class BotTryRepository {
  constructor(private readonly db: PrismaService) {}

  /**
   * Snapshots the draft as the next test version and opens a test conversation on it with its start input.
   * Null when the bot has no saved draft. `check` may refuse the draft (it throws).
   */
  async start(botId: string, by: string, payload: string, check: (draft: Prisma.JsonValue) => void): Promise<{ conversationId: string; version: number; seq: bigint } | null> {
    return this.db.$transaction(async (tx) => {
      // The draft row's lock: a test snapshots the draft as it is, not while it is being saved.
      const [row] = await tx.$queryRaw<Array<{ draft: Prisma.JsonValue | null }>>`SELECT "draft" FROM "bot_definitions" WHERE "bot_id" = ${botId}::uuid FOR UPDATE`;
      if (!row?.draft) return null;
      check(row.draft);
      const [{ v: version }] = await tx.$queryRaw<Array<{ v: number }>>`SELECT (-nextval('bot_test_version_seq'))::int AS v`;
      await tx.botVersion.create({ data: { botId, version, definition: row.draft as Prisma.InputJsonValue, publishedBy: by, note: 'builder test' } });
      // Older tests go (their conversations with them): a test is looked at while it runs, not kept. The newest have the lowest numbers.
      await tx.$executeRaw`DELETE FROM "conversations" WHERE "bot_id" = ${botId}::uuid AND "test_version" < 0
        AND "test_version" NOT IN (SELECT "version" FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" < 0 ORDER BY "version" LIMIT ${KEPT_TEST_VERSIONS})`;
      await tx.$executeRaw`DELETE FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" < 0
        AND "version" NOT IN (SELECT "version" FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" < 0 ORDER BY "version" LIMIT ${KEPT_TEST_VERSIONS})`;
      const conversation = await tx.conversation.create({ data: { botId, channel: 'web', userId: `builder-test:${randomUUID()}`, testVersion: version }, select: { id: true } });
      const [input] = await tx.$queryRaw<Array<{ seq: string }>>`
        INSERT INTO "bot_inputs" ("conversation_id", "bot_id", "kind", "payload") VALUES (${conversation.id}::uuid, ${botId}::uuid, 'start', ${payload})
        RETURNING "seq"::text AS seq`;
      return { conversationId: conversation.id, version, seq: BigInt(input!.seq) };
    });
  }

  /** The test conversation of the bot, or null (not one, or another bot's). */
  find(botId: string, conversationId: string): Promise<{ id: string; testVersion: number | null } | null> {
    return this.db.conversation.findFirst({ where: { id: conversationId, botId, testVersion: { not: null } }, select: { id: true, testVersion: true } });
  }

  /** The tester's message and the bot's input for it, in one statement. */
  async message(botId: string, conversationId: string, content: { text: string; payload?: string }): Promise<bigint> {
    const messageId = randomUUID();
    const { rows } = await this.db.query<{ seq: string }>({
      text: `WITH m AS (
               INSERT INTO "conversation_messages" ("id", "conversation_id", "direction", "type", "content", "webhook_settled_at")
               VALUES ($3::uuid, $2::uuid, 'inbound', $4, $5::jsonb, now()) RETURNING "id")
             INSERT INTO "bot_inputs" ("conversation_id", "bot_id", "kind", "message_id") SELECT $2::uuid, $1::uuid, 'message', m."id" FROM m
             RETURNING "seq"::text AS seq`,
      values: [botId, conversationId, messageId, content.payload ? 'quick_reply' : 'text', JSON.stringify(content)],
    });
    return BigInt(rows[0]!.seq);
  }

  /** The transcript, oldest first (the newest 200). */
  async messages(conversationId: string): Promise<TryMessageRow[]> {
    const rows = await this.db.conversationMessage.findMany({
      where: { conversationId },
      orderBy: { seq: 'desc' },
      take: 200,
      select: { id: true, direction: true, type: true, content: true, status: true, createdAt: true },
    });
    return rows.reverse().map((r) => ({ ...r, direction: r.direction as string, status: (r.status as string | null) ?? null }));
  }
}
