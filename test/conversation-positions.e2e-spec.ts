import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import type { CoreEnv, DatabaseEnv } from '@platform/config';
import type { BotOutput } from '@platform/contracts';
import { BotInputRepository, BotRunRepository, BotTryRepository, ConversationRepository, KEPT_TEST_VERSIONS, PendingBotInput, PrismaService, migrate } from '@platform/database';

/**
 * conversation_messages.position under concurrent writers of one conversation, through the platform's
 * own repositories on real Postgres: the runtime's turns (insert the replies, then touch the
 * conversation, in one statement, two records per turn), inbound messages (upsert the conversation,
 * then insert), outbound and agent messages (touch the conversation, then insert, in a transaction),
 * the builder's try-it messages (insert only), session starts (touch only), handoffs (the state row the
 * turn locks first) and status writes. The trigger must lock the conversation before its counter, the
 * order every one of these takes, or the writers deadlock; and hold both until commit, or a reader
 * sees a later place committed before an earlier one. A user's erasure deletes the conversation while a
 * turn holds its state row: it must take the state row first, as the turn does; so must a builder test's
 * start, which deletes the oldest test conversations.
 */
describe('conversation message positions (Postgres, concurrent writers)', () => {
  const admin = process.env.TEST_DATABASE_URL!;
  let db: PrismaService;
  let reader: pg.Client;
  let botId: string;

  beforeAll(async () => {
    const name = `positions_${process.pid}_${Date.now()}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE "${name}"`);
    await c.end();
    const url = admin.replace(/\/[^/]*$/, `/${name}`);
    await migrate(url, join(process.cwd(), 'prisma', 'migrations'));
    // Generous timeouts: writers wait on each other's locks by design, and the host is shared.
    db = new PrismaService(
      { DATABASE_URL: url } as CoreEnv,
      {
        DATABASE_POOL_SIZE: 60,
        DATABASE_CONNECT_TIMEOUT_MS: 60_000,
        DATABASE_QUERY_TIMEOUT_MS: 120_000,
        DATABASE_PREPARED_STATEMENTS: true,
      } as DatabaseEnv,
    );
    reader = new pg.Client({ connectionString: url });
    await reader.connect();
    ({
      rows: [{ id: botId }],
    } = await reader.query<{ id: string }>(`INSERT INTO "bots" ("id", "name") VALUES (gen_random_uuid(), 'positions') RETURNING "id"`));
  }, 120_000);

  afterAll(async () => {
    await reader?.end();
    await db?.onApplicationShutdown();
  });

  const text = (t: string) => ({ text: t });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('hands out 1..n in commit order, with no deadlock, while every kind of writer races on one conversation', async () => {
    const conversations = new ConversationRepository(db);
    const runs = new BotRunRepository(db);
    const inputs = new BotInputRepository(db);
    const tries = new BotTryRepository(db);
    const userId = `user-${randomUUID()}`;
    const conversation = await conversations.upsert(botId, 'web', userId);
    // A second conversation of the same bot, written alongside: its count is its own.
    const other = await conversations.upsert(botId, 'web', `other-${randomUUID()}`);

    const errors: unknown[] = [];
    let inserted = 0;
    let otherInserted = 0;
    const outboundIds: string[] = [];
    const run = (p: Promise<unknown>) => p.catch((err: unknown) => void errors.push(err));

    const turn = (replies: number) =>
      runs.withTurn(conversation.id, botId, async (t) => {
        for (let r = 0; r < 2; r++) {
          const outputs: BotOutput[] = Array.from({ length: replies }, (_, i) => ({ kind: 'reply', reply: { text: `turn reply ${r}.${i}` } }));
          await t.record({ seq: 0n, input: { kind: 'message', text: 'x' } }, { state: null, outputs, steps: [], version: null });
          inserted += replies;
          // Between two inputs the turn goes on holding what it locked (the engine runs the next one).
          await sleep(Math.random() * 5);
        }
      });
    const inbound = (i: number) => conversations.recordInbound({ botId, channel: 'web', userId, type: 'text', content: text(`user ${i}`), at: new Date() }).then(() => void inserted++);
    const outbound = (i: number, sentByUserId?: string) =>
      conversations.createOutbound(conversation.id, 'text', text(`reply ${i}`), 'queued', undefined, sentByUserId).then((r) => {
        inserted++;
        outboundIds.push(r!.message.id);
      });
    const tryIt = (i: number) => tries.message(botId, conversation.id, { text: `try ${i}` }).then(() => void inserted++);
    const otherWriter = (i: number) => conversations.createOutbound(other.id, 'text', text(`other ${i}`), 'queued').then(() => void otherInserted++);

    // Every committed state a reader sees must be 1..k: a place committed while an earlier one is not yet
    // is a hole, until that one commits (or never, when places are not handed out in commit order).
    const holes: string[] = [];
    let writing = true;
    const watch = (async () => {
      while (writing) {
        const { rows } = await reader.query<{ position: number }>(`SELECT "position" FROM "conversation_messages" WHERE "conversation_id" = $1 ORDER BY "position"`, [conversation.id]);
        const seen = rows.map((r) => r.position);
        if (seen.some((p, i) => p !== i + 1)) holes.push(seen.join(','));
        await sleep(1);
      }
    })();

    const { rows: members } = await reader.query<{ id: string }>(`INSERT INTO "users" ("id", "email", "password_hash") VALUES (gen_random_uuid(), $1, 'x') RETURNING "id"`, [
      `agent-${randomUUID()}@example.com`,
    ]);
    for (let round = 0; round < 8; round++) {
      const writers: Promise<unknown>[] = [];
      for (let i = 0; i < 4; i++) writers.push(run(turn(1 + ((round + i) % 3))));
      for (let i = 0; i < 6; i++) writers.push(run(inbound(round * 10 + i)));
      for (let i = 0; i < 6; i++) writers.push(run(outbound(round * 10 + i, i % 2 === 0 ? members[0].id : undefined)));
      for (let i = 0; i < 3; i++) writers.push(run(tryIt(round * 10 + i)));
      for (let i = 0; i < 3; i++) writers.push(run(conversations.upsert(botId, 'web', userId)));
      for (let i = 0; i < 3; i++) writers.push(run(otherWriter(round * 10 + i)));
      writers.push(run(inputs.handoff(botId, conversation.id)));
      for (const id of outboundIds.splice(0)) writers.push(run(conversations.markSent(id, `web:${id}`)));
      // Shuffled, so no kind of writer always goes first.
      await Promise.all(writers.sort(() => Math.random() - 0.5));
    }
    writing = false;
    await watch;

    expect(errors.map((e) => `${(e as { code?: string }).code ?? ''} ${(e as Error).message}`)).toEqual([]);
    const positions = async (id: string) =>
      (await reader.query<{ position: number }>(`SELECT "position" FROM "conversation_messages" WHERE "conversation_id" = $1 ORDER BY "position"`, [id])).rows.map((r) => r.position);
    const counter = async (id: string) => (await reader.query<{ last: number }>(`SELECT "last_position" AS "last" FROM "conversation_positions" WHERE "conversation_id" = $1`, [id])).rows[0]?.last;
    expect(inserted).toBeGreaterThan(200);
    expect(await positions(conversation.id)).toEqual(Array.from({ length: inserted }, (_, i) => i + 1));
    expect(await counter(conversation.id)).toBe(inserted);
    expect(await positions(other.id)).toEqual(Array.from({ length: otherInserted }, (_, i) => i + 1));
    expect(holes).toEqual([]);
  }, 600_000);

  /**
   * Runs `deleting` while a turn of the conversation holds its state row (the turn's first lock) and only
   * then writes its reply: the errors of both ("<code> <message>"), none when one waited for the other.
   */
  async function whileTurnHoldsState(conversationId: string, bot: string, input: PendingBotInput, version: number | null, deleting: () => Promise<unknown>): Promise<string[]> {
    const errors: unknown[] = [];
    let locked!: () => void;
    const turnHoldsState = new Promise<void>((r) => (locked = r));
    const turn = new BotRunRepository(db)
      .withTurn(conversationId, bot, async (t) => {
        locked();
        await sleep(300);
        await t.record(input, { state: null, outputs: [{ kind: 'reply', reply: { text: 'hi' } }], steps: [], version });
      })
      .catch((err: unknown) => void errors.push(err));
    await turnHoldsState;
    await Promise.all([turn, deleting().catch((err: unknown) => void errors.push(err))]);
    return errors.map((e) => `${(e as { code?: string }).code ?? ''} ${(e as Error).message}`);
  }

  it('erases a user while a turn of theirs is writing replies: one waits for the other, no deadlock', async () => {
    const conversations = new ConversationRepository(db);
    const runs = new BotRunRepository(db);
    for (let i = 0; i < 5; i++) {
      const userId = `erased-${randomUUID()}`;
      const conversation = await conversations.upsert(botId, 'web', userId);
      await conversations.recordInbound({ botId, channel: 'web', userId, type: 'text', content: text('hello'), at: new Date() });
      // A conversation the bot has run in before: its state row exists (a first turn's insert of it would hold the conversation's key).
      await runs.withTurn(conversation.id, botId, async () => undefined);
      const errors = await whileTurnHoldsState(conversation.id, botId, { seq: 0n, input: { kind: 'message', text: 'hello' } }, null, () => conversations.deleteUser(botId, userId));
      expect(errors).toEqual([]);
      expect(await conversations.findByUser(botId, 'web', userId)).toBeNull();
    }
  }, 120_000);

  it('starts a builder test that deletes the oldest test conversation while a turn of it is writing replies: no deadlock', async () => {
    const tries = new BotTryRepository(db);
    const runs = new BotRunRepository(db);
    const {
      rows: [{ id: tryBot }],
    } = await reader.query<{ id: string }>(`INSERT INTO "bots" ("id", "name") VALUES (gen_random_uuid(), 'positions try-it') RETURNING "id"`);
    await reader.query(`INSERT INTO "bot_definitions" ("bot_id", "draft", "updated_at") VALUES ($1, '{}', now())`, [tryBot]);
    const start = async () => (await tries.start(tryBot, 'test', '{}', () => undefined))!;
    for (let i = 0; i < 3; i++) {
      // The oldest of the kept tests: the next start deletes it.
      const oldest = await start();
      for (let k = 1; k < KEPT_TEST_VERSIONS; k++) await start();
      await runs.withTurn(oldest.conversationId, tryBot, async () => undefined); // its state row exists
      const errors = await whileTurnHoldsState(oldest.conversationId, tryBot, { seq: oldest.seq, input: { kind: 'start', payload: '{}' } }, oldest.version, start);
      expect(errors).toEqual([]);
      expect(await tries.find(tryBot, oldest.conversationId)).toBeNull();
    }
  }, 120_000);
});
