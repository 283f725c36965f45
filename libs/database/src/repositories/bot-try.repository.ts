import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { CoreEnv, DatabaseEnv } from '@platform/config';
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
 * A test conversation is a web conversation whose chat user is the test's own short-lived chat token
 * (the console opens the hosted chat page with it), or of no chat user (`builder-test:<uuid>`).
 */
@Injectable()
export class BotTryRepository {
  constructor(private readonly db: PrismaService) {}

  /**
   * Snapshots the draft as the next test version and opens a test conversation on it with its start input.
   * Null when the bot has no saved draft. `check` may refuse the draft (it throws).
   */
  async start(
    botId: string,
    by: string,
    payload: string,
    check: (draft: Prisma.JsonValue) => void,
    userId: string = `builder-test:${randomUUID()}`,
  ): Promise<{ conversationId: string; version: number; seq: bigint } | null> {
    return this.db.$transaction(async (tx) => {
      // The draft row's lock: a test snapshots the draft as it is, not while it is being saved.
      const [row] = await tx.$queryRaw<Array<{ draft: Prisma.JsonValue | null }>>`SELECT "draft" FROM "bot_definitions" WHERE "bot_id" = ${botId}::uuid FOR UPDATE`;
      if (!row?.draft) return null;
      check(row.draft);
      const [{ v: version }] = await tx.$queryRaw<Array<{ v: number }>>`SELECT (-nextval('bot_test_version_seq'))::int AS v`;
      await tx.botVersion.create({ data: { botId, version, definition: row.draft as Prisma.InputJsonValue, publishedBy: by, note: 'builder test' } });
      // Older tests go (their conversations with them): a test is looked at while it runs, not kept. The newest have the lowest numbers.
      // Their runtime state rows are locked first, the order a turn takes (its state row, then the conversation as it writes
      // replies): deleting the conversation first would wait for a running turn's state row (the cascade) while the turn
      // waits for the conversation, a deadlock.
      await tx.$queryRaw`SELECT 1 FROM "bot_conversation_states" AS s JOIN "conversations" AS c ON c."id" = s."conversation_id"
        WHERE c."bot_id" = ${botId}::uuid AND c."test_version" < 0
          AND c."test_version" NOT IN (SELECT "version" FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" < 0 ORDER BY "version" LIMIT ${KEPT_TEST_VERSIONS})
        ORDER BY s."conversation_id" FOR UPDATE OF s`;
      await tx.$executeRaw`DELETE FROM "conversations" WHERE "bot_id" = ${botId}::uuid AND "test_version" < 0
        AND "test_version" NOT IN (SELECT "version" FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" < 0 ORDER BY "version" LIMIT ${KEPT_TEST_VERSIONS})`;
      await tx.$executeRaw`DELETE FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" < 0
        AND "version" NOT IN (SELECT "version" FROM "bot_versions" WHERE "bot_id" = ${botId}::uuid AND "version" < 0 ORDER BY "version" LIMIT ${KEPT_TEST_VERSIONS})`;
      const conversation = await tx.conversation.create({ data: { botId, channel: 'web', userId, testVersion: version }, select: { id: true } });
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

/** The channel a builder test's step inserts notify (migration 20261220400000), with the conversation id. */
export const BOT_TRY_STEPS_CHANNEL = 'bot_try_steps';
const FEED_RETRY_MS = 1000;
const FEED_IDLE_STOP_MS = 10_000;

/**
 * Builder tests' new steps as they commit: one connection LISTENs on `bot_try_steps` while someone
 * watches a test on this replica (a try-it pane open), and each notification (a conversation id) calls
 * that conversation's listeners, which read the new steps. After the connection dropped and came back,
 * every listener is called once, since notifications meanwhile were lost.
 */
@Injectable()
export class BotTryStepFeed implements OnApplicationShutdown {
  private readonly logger = new Logger('BotTryStepFeed');
  private readonly listeners = new Map<string, Set<() => void>>();
  private client: Promise<pg.Client> | null = null;
  private idleTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly env: CoreEnv,
    private readonly db: DatabaseEnv,
  ) {}

  /** Calls `listener` after each later commit of steps of the conversation; resolves once listening (nothing committed after it is missed). */
  async subscribe(conversationId: string, listener: () => void): Promise<() => void> {
    let set = this.listeners.get(conversationId);
    if (!set) this.listeners.set(conversationId, (set = new Set()));
    set.add(listener);
    clearTimeout(this.idleTimer);
    const unsubscribe = () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(conversationId) === set) this.listeners.delete(conversationId);
      if (this.listeners.size === 0) this.idleTimer = setTimeout(() => this.close(), FEED_IDLE_STOP_MS).unref();
    };
    try {
      this.client ??= this.connect();
      await this.client;
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  private async connect(): Promise<pg.Client> {
    // LISTEN is session-bound: past a transaction-mode pooler it goes to Postgres itself (DATABASE_DIRECT_URL).
    const client = new pg.Client({ connectionString: this.db.DATABASE_DIRECT_URL ?? this.env.DATABASE_URL, connectionTimeoutMillis: 5000 });
    const lost = (err?: Error) => {
      if (err) this.logger.debug(`listen connection: ${err.message}`);
      if (this.client === attempt) this.client = null;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      // Still watched: listen again, then let every watcher read what it may have missed.
      if (!this.stopped && this.listeners.size > 0) {
        setTimeout(() => {
          if (this.stopped || this.listeners.size === 0 || this.client) return;
          this.client = this.connect();
          void this.client.then(
            () => this.callAll(),
            () => undefined,
          );
        }, FEED_RETRY_MS).unref();
      }
    };
    const attempt = (async () => {
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', (n) => {
        for (const listener of this.listeners.get(n.payload ?? '') ?? []) listener();
      });
      await client.connect();
      await client.query(`LISTEN ${BOT_TRY_STEPS_CHANNEL}`);
      return client;
    })();
    attempt.catch((err: Error) => lost(err));
    return attempt;
  }

  private callAll(): void {
    for (const set of this.listeners.values()) for (const listener of set) listener();
  }

  private close(): void {
    const client = this.client;
    this.client = null;
    void client?.then((c) => (c.removeAllListeners(), c.end())).catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.idleTimer);
    this.close();
  }
}
