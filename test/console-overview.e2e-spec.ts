import { randomUUID } from 'node:crypto';
import type { OverviewResponse } from '@platform/contracts';
import { OverviewRepository } from '@platform/database';
import { seedBotAdmin, seedCarouselBot } from '@platform/testing';
import { sqlRows } from './push-support.js';
import { useStack } from './e2e-stack.js';

/** GET /v1/bots/:botId/overview over rows seeded in SQL: every number exact, another bot's rows never counted. */
describe('console overview API', () => {
  const stack = useStack({ seed: true });
  const sql = (text: string, params: unknown[] = []) => sqlRows(stack.env.DATABASE_URL, text, params);
  const get = (path: string, token?: string) => fetch(`${stack.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  let bot: string;
  let templateId: string;
  let senderId: string;
  let queuedId: string;

  beforeAll(async () => {
    bot = stack.seed.botId;
    const other = await seedCarouselBot(stack.gateway);
    [{ id: templateId }] = await sql('SELECT id FROM templates WHERE bot_id = $1', [bot]);
    [{ id: senderId }] = await sql('SELECT id FROM channel_senders WHERE bot_id = $1', [bot]);
    const [{ id: otherTemplate }] = await sql('SELECT id FROM templates WHERE bot_id = $1', [other.botId]);
    const [{ id: otherSender }] = await sql('SELECT id FROM channel_senders WHERE bot_id = $1', [other.botId]);
    const message = async (b: string, t: string, s: string, status: string, at: string) => {
      const id = randomUUID();
      await sql(`INSERT INTO messages (id, bot_id, template_id, sender_id, channel, recipient, status, created_at, updated_at) VALUES ($1, $2, $3, $4, 'whatsapp', '919800000000', $5, $6, $6)`, [
        id,
        b,
        t,
        s,
        status,
        at,
      ]);
      return id;
    };
    await message(bot, templateId, senderId, 'read', '2026-11-30T23:59:59.999Z'); // the day before the range
    for (const status of ['read', 'read', 'read', 'delivered', 'failed']) await message(bot, templateId, senderId, status, '2026-12-01T00:00:00.000Z');
    queuedId = await message(bot, templateId, senderId, 'queued', '2026-12-01T12:00:00Z');
    await message(bot, templateId, senderId, 'sent', '2026-12-02T23:59:59.999Z');
    await message(bot, templateId, senderId, 'sent', '2026-12-02T08:00:00Z');
    await message(bot, templateId, senderId, 'read', '2026-12-03T00:00:00Z'); // the day after
    for (let i = 0; i < 5; i++) await message(other.botId, otherTemplate, otherSender, 'failed', '2026-12-01T10:00:00Z');

    const conversation = async (b: string, channel: string, at: string) => {
      const id = randomUUID();
      await sql(`INSERT INTO conversations (id, bot_id, channel, user_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`, [id, b, channel, `u-${id}`, at]);
      return id;
    };
    const web = await conversation(bot, 'web', '2026-12-01T09:00:00Z');
    const wa = await conversation(bot, 'whatsapp', '2026-12-02T09:00:00Z');
    await conversation(bot, 'web', '2026-11-29T09:00:00Z');
    const foreign = await conversation(other.botId, 'whatsapp', '2026-12-01T09:00:00Z');
    const reply = (c: string, direction: string, status: string | null, at: string) =>
      sql(`INSERT INTO conversation_messages (id, conversation_id, direction, type, content, status, created_at) VALUES ($1, $2, $3, 'text', '{}', $4, $5)`, [randomUUID(), c, direction, status, at]);
    await reply(web, 'outbound', 'read', '2026-12-01T09:00:01Z');
    await reply(web, 'outbound', 'failed', '2026-12-01T09:00:02Z');
    await reply(web, 'inbound', null, '2026-12-01T09:00:03Z'); // the user's: not a reply
    await reply(wa, 'outbound', 'queued', '2026-12-02T09:00:01Z');
    await reply(foreign, 'outbound', 'read', '2026-12-01T09:00:01Z');

    const step = (c: string, b: string, node: string, kind: string, outcome: string, at: string) =>
      sql(`INSERT INTO bot_steps (conversation_id, bot_id, version, journey, node, kind, outcome, duration_ms, started_at) VALUES ($1, $2, 1, 'start', $3, $4, $5, 1, $6)`, [
        c,
        b,
        node,
        kind,
        outcome,
        at,
      ]);
    // web: asked twice, still waiting for the answer; wa: asked, the lookup failed, ended
    await step(web, bot, 'ask', 'question', 'ok', '2026-12-01T09:00:00Z');
    await step(web, bot, 'ask', 'question', 'waiting', '2026-12-01T09:00:01Z');
    await step(wa, bot, 'ask', 'question', 'ok', '2026-12-02T09:00:00Z');
    await step(wa, bot, 'lookup', 'code', 'error', '2026-12-02T09:00:01Z');
    await step(wa, bot, 'bye', 'end', 'ok', '2026-12-02T09:00:02Z');
    await step(foreign, other.botId, 'ask', 'question', 'error', '2026-12-01T09:00:00Z');
  });

  it('answers the range exactly: days by status, funnels, conversations per channel, journeys', async () => {
    const viewer = await seedBotAdmin(stack.gateway, bot, 'viewer');
    const res = await get(`/v1/bots/${bot}/overview?from=2026-12-01&to=2026-12-02`, viewer.accessToken);
    expect(res.status).toBe(200);
    const o = (await res.json()) as OverviewResponse;
    expect(o.from).toBe('2026-12-01');
    expect(o.days).toEqual([
      { day: '2026-12-01', carousels: { pending: 1, sent: 0, delivered: 1, read: 3, failed: 1 }, replies: { pending: 0, sent: 0, delivered: 0, read: 1, failed: 1 } },
      { day: '2026-12-02', carousels: { pending: 0, sent: 2, delivered: 0, read: 0, failed: 0 }, replies: { pending: 1, sent: 0, delivered: 0, read: 0, failed: 0 } },
    ]);
    expect(o.totals.carousels).toEqual({ accepted: 8, pending: 1, sent: 2, delivered: 1, read: 3, failed: 1 });
    expect(o.templates).toEqual([{ templateId, name: expect.any(String), language: expect.any(String), accepted: 8, sent: 6, delivered: 4, read: 3, failed: 1, pending: 1 }]);
    expect(o.senders).toEqual([{ senderId, number: stack.seed.senderNumber, accepted: 8, sent: 6, delivered: 4, read: 3, failed: 1, pending: 1 }]);
    expect(o.senderNumbers).toBe(1);
    expect(o.conversations).toEqual([
      { channel: 'whatsapp', conversations: 1 },
      { channel: 'web', conversations: 1 },
    ]);
    expect(o.journeys).toEqual([
      {
        journey: 'start',
        conversations: 2,
        completed: 1,
        completionRate: 0.5,
        handedOn: 0,
        handedOnTo: [],
        waiting: 1,
        errors: 1,
        steps: 5,
        nodes: [
          { node: 'ask', kind: 'question', reached: 2, steps: 3, errors: 0, errorRate: 0, stopped: 1, ended: 0, handedOn: 0, handsOnTo: null, waiting: 1 },
          { node: 'bye', kind: 'end', reached: 1, steps: 1, errors: 0, errorRate: 0, stopped: 1, ended: 1, handedOn: 0, handsOnTo: null, waiting: 0 },
          { node: 'lookup', kind: 'code', reached: 1, steps: 1, errors: 1, errorRate: 1, stopped: 0, ended: 0, handedOn: 0, handsOnTo: null, waiting: 0 },
        ],
      },
    ]);
  });

  it('counts a status change at once: the write marks its day, the next read recounts it', async () => {
    const admin = await seedBotAdmin(stack.gateway, bot);
    const before = (await (await get(`/v1/bots/${bot}/overview?from=2026-12-01&to=2026-12-01`, admin.accessToken)).json()) as OverviewResponse;
    expect(before.days[0].carousels).toEqual({ pending: 1, sent: 0, delivered: 1, read: 3, failed: 1 });
    // only the asked range is recounted: the days around it stay marked for a later reader
    const marked = () => sql(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM message_stats_dirty WHERE bot_id = $1 ORDER BY day`, [bot]);
    expect(await marked()).toEqual([{ day: '2026-11-30' }, { day: '2026-12-03' }]);
    await sql(`UPDATE messages SET status = 'read' WHERE id = $1`, [queuedId]);
    expect(await marked()).toEqual([{ day: '2026-11-30' }, { day: '2026-12-01' }, { day: '2026-12-03' }]);
    const after = (await (await get(`/v1/bots/${bot}/overview?from=2026-12-01&to=2026-12-01`, admin.accessToken)).json()) as OverviewResponse;
    expect(after.days[0].carousels).toEqual({ pending: 0, sent: 0, delivered: 1, read: 4, failed: 1 });
    // a deleted message leaves the counts too
    await sql(`DELETE FROM messages WHERE id = $1`, [queuedId]);
    const gone = (await (await get(`/v1/bots/${bot}/overview?from=2026-12-01&to=2026-12-01`, admin.accessToken)).json()) as OverviewResponse;
    expect(gone.totals.carousels).toEqual({ accepted: 5, pending: 0, sent: 0, delivered: 1, read: 3, failed: 1 });
  });

  it('keeps the reply, conversation and step rollups equal to a direct count of the raw tables through inserts, updates, a late status and deletes', async () => {
    const repo = stack.gateway.get(OverviewRepository);
    const b = (await seedCarouselBot(stack.gateway)).botId;
    const range = { from: '2026-10-01', to: '2026-10-05' };
    const conv = async (channel: string, at: string, testVersion: number | null = null) => {
      const id = randomUUID();
      await sql(`INSERT INTO conversations (id, bot_id, channel, user_id, test_version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`, [id, b, channel, `u-${id}`, testVersion, at]);
      return id;
    };
    const reply = async (c: string, status: string, at: string, direction = 'outbound') => {
      const id = randomUUID();
      await sql(`INSERT INTO conversation_messages (id, conversation_id, direction, type, content, status, created_at) VALUES ($1, $2, $3, 'text', '{}', $4, $5)`, [id, c, direction, status, at]);
      return id;
    };
    const steps = (c: string, version: number, rows: Array<[journey: string, node: string, kind: string, outcome: string, at: string]>) =>
      sql(
        `INSERT INTO bot_steps (conversation_id, bot_id, version, journey, node, kind, outcome, duration_ms, started_at)
         SELECT $1, $2, $3, r->>0, r->>1, r->>2, r->>3, 1, (r->>4)::timestamptz FROM jsonb_array_elements($4::jsonb) r`,
        [c, b, version, JSON.stringify(rows)],
      );
    // The direct count, written here in plain SQL (not the repository's live query): replies per day and status, conversations per channel.
    const direct = async () => ({
      replies: await sql(
        `SELECT to_char((m.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*) FILTER (WHERE m.status IN ('queued', 'processing'))::int AS pending,
                count(*) FILTER (WHERE m.status = 'sent')::int AS sent, count(*) FILTER (WHERE m.status = 'delivered')::int AS delivered,
                count(*) FILTER (WHERE m.status = 'read')::int AS read, count(*) FILTER (WHERE m.status = 'failed')::int AS failed
         FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
         WHERE c.bot_id = $1 AND c.test_version IS NULL AND m.direction = 'outbound' AND m.created_at >= '2026-10-01T00:00:00Z' AND m.created_at < '2026-10-06T00:00:00Z'
         GROUP BY 1 ORDER BY 1`,
        [b],
      ),
      conversations: await sql(
        `SELECT channel::text AS channel, count(*)::int AS conversations FROM conversations
         WHERE bot_id = $1 AND test_version IS NULL AND created_at >= '2026-10-01T00:00:00Z' AND created_at < '2026-10-06T00:00:00Z' GROUP BY 1 ORDER BY 1`,
        [b],
      ),
      steps: (await sql(`SELECT count(*)::int AS n FROM bot_steps WHERE bot_id = $1 AND version > 0 AND started_at >= '2026-10-01T00:00:00Z' AND started_at < '2026-10-06T00:00:00Z'`, [b]))[0].n,
    });
    const compare = async () => {
      await repo.refreshParts(b, range);
      const want = await direct();
      expect(await repo.replyDays(b, range)).toEqual(want.replies);
      expect(await repo.replyDays(b, range)).toEqual(await repo.replyDaysLive(b, range));
      expect(await repo.conversationsPerChannel(b, range)).toEqual(want.conversations);
      const nodes = await repo.journeyNodes(b, range);
      expect(nodes).toEqual(await repo.journeyNodesLive(b, range));
      expect(nodes.reduce((sum, node) => sum + node.steps, 0)).toBe(want.steps);
      return nodes;
    };

    const web = await conv('web', '2026-10-01T23:59:00Z');
    const wa = await conv('whatsapp', '2026-10-02T10:00:00Z');
    const test = await conv('web', '2026-10-02T10:00:00Z', -1); // a builder test: counted nowhere
    await conv('web', '2026-09-30T10:00:00Z'); // before the range
    const late = await reply(web, 'sent', '2026-10-01T23:59:30Z');
    await reply(web, 'read', '2026-10-02T00:00:10Z');
    await reply(web, 'delivered', '2026-10-02T00:00:10Z', 'inbound'); // the user's: not a reply
    await reply(wa, 'queued', '2026-10-02T10:00:01Z');
    await reply(test, 'read', '2026-10-02T10:00:01Z');
    // web runs its journey across midnight (it counts on both days), wa ends it, the test's steps are its own
    await steps(web, 1, [
      ['start', 'ask', 'question', 'ok', '2026-10-01T23:59:00Z'],
      ['start', 'ask', 'question', 'waiting', '2026-10-01T23:59:01Z'],
      ['start', 'ask', 'question', 'ok', '2026-10-02T00:00:10Z'],
      ['start', 'lookup', 'function', 'error', '2026-10-02T00:00:11Z'],
      ['start', 'bye', 'end', 'ok', '2026-10-02T00:00:12Z'],
    ]);
    await steps(wa, 1, [
      ['start', 'ask', 'question', 'waiting', '2026-10-02T10:00:00Z'],
      ['order', 'pick', 'question', 'waiting', '2026-10-04T10:00:00Z'],
    ]);
    await steps(test, -1, [['start', 'ask', 'question', 'error', '2026-10-02T10:00:00Z']]);
    const first = await compare();
    expect(first.find((node) => node.node === 'ask')).toMatchObject({ reached: 3, steps: 4, stopped: 2, waiting: 2 });
    expect((await direct()).conversations).toEqual([
      { channel: 'web', conversations: 1 },
      { channel: 'whatsapp', conversations: 1 },
    ]);

    // A late status (read receipt days on), more steps on an old day, a new conversation, a deleted one (its replies and steps go by the cascade).
    await sql(`UPDATE conversation_messages SET status = 'read' WHERE id = $1`, [late]);
    await steps(wa, 1, [['order', 'pick', 'question', 'ok', '2026-10-04T11:00:00Z']]);
    const third = await conv('whatsapp', '2026-10-05T08:00:00Z');
    await reply(third, 'failed', '2026-10-05T08:00:01Z');
    await steps(third, 1, [['start', 'bye', 'end', 'ok', '2026-10-05T08:00:00Z']]);
    await compare();
    expect((await repo.replyDays(b, range))[0]).toEqual({ day: '2026-10-01', pending: 0, sent: 0, delivered: 0, read: 1, failed: 0 });
    await sql(`DELETE FROM conversations WHERE id = $1`, [web]);
    const after = await compare();
    expect(after.find((node) => node.node === 'ask')).toMatchObject({ reached: 1, steps: 1, stopped: 1, waiting: 1 });
    expect((await repo.replyDays(b, range)).map((d) => d.day)).toEqual(['2026-10-02', '2026-10-05']);
  });

  it('refuses bad ranges with a 400 naming the problem, strangers with 403 and no token with 401', async () => {
    const admin = await seedBotAdmin(stack.gateway, bot);
    for (const [query, message] of [
      ['from=2026-12-1', /from must be a day as YYYY-MM-DD/],
      ['from=2026-02-30&to=2026-03-02', /from must be a calendar day/],
      ['from=2026-12-05&to=2026-12-01', /from \(2026-12-05\) must not be after to \(2026-12-01\)/],
      ['from=2024-01-01&to=2026-12-01', /at most 366 days/],
    ] as const) {
      const res = await get(`/v1/bots/${bot}/overview?${query}`, admin.accessToken);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(message);
    }
    const other = await seedCarouselBot(stack.gateway);
    const stranger = await seedBotAdmin(stack.gateway, other.botId);
    expect((await get(`/v1/bots/${bot}/overview`, stranger.accessToken)).status).toBe(403);
    expect((await get(`/v1/bots/${bot}/overview`)).status).toBe(401);
  });
});
