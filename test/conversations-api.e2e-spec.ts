import { randomUUID } from 'node:crypto';
import { ConversationRepository, PrismaService } from '@platform/database';
import type { ConversationChannel } from '@platform/database';
import { seedBotAdmin } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { SdkBot, eventually, postJson, seedSdkBot } from './sdk-support.js';

interface Page {
  messages: Array<{
    id: string;
    conversationId: string;
    direction: string;
    type: string;
    content: { text?: string };
    status: string | null;
    createdAt: string;
    sentBy: { kind: string; userId?: string };
  }>;
  next: string | null;
}

/**
 * The bot's side of conversations over HTTP against real Postgres and Redis: reading a transcript page
 * by page, a user's data-protection erasure, and the retention sweep that runs in the gateway.
 */
describe('conversations API: paging, erasure, retention', () => {
  // A 1-day retention swept every second, so that the test sees the gateway's own periodic sweep.
  const stack = useStack({ env: { CONVERSATION_RETENTION_DAYS: '1', CONVERSATION_SWEEP_INTERVAL_SECONDS: '1' } });
  let botA: SdkBot;
  let botB: SdkBot;
  let repo: ConversationRepository;
  let db: PrismaService;

  beforeAll(async () => {
    botA = await seedSdkBot(stack.gateway);
    botB = await seedSdkBot(stack.gateway);
    repo = stack.gateway.get(ConversationRepository, { strict: false });
    db = stack.gateway.get(PrismaService, { strict: false });
  });

  /** A conversation with `texts.length` messages, user and bot taking turns; returns its id and the messages' ids in order. */
  async function conversation(bot: SdkBot, userId: string, texts: string[], channel: ConversationChannel = 'whatsapp') {
    const ids: string[] = [];
    let conversationId = '';
    for (const [i, text] of texts.entries()) {
      if (i % 2 === 0) {
        const { message } = await repo.recordInbound({ botId: bot.botId, channel, userId, type: 'text', content: { text }, at: new Date() });
        conversationId = message.conversationId;
        ids.push(message.id);
      } else {
        const created = await repo.createOutbound(conversationId, 'text', { text }, 'sent');
        ids.push(created!.message.id);
      }
    }
    return { conversationId, ids };
  }

  const auth = (bot: SdkBot) => ({ authorization: `Bearer ${bot.apiKey}` });
  const get = (bot: SdkBot, path: string) => fetch(`${stack.url}/v1/bots/${bot.botId}/conversations${path}`, { headers: auth(bot) });
  const erase = (bot: SdkBot, query: string) => fetch(`${stack.url}/v1/bots/${bot.botId}/conversations${query}`, { method: 'DELETE', headers: auth(bot) });

  async function page(bot: SdkBot, conversationId: string, query = ''): Promise<Page> {
    const res = await get(bot, `/${conversationId}/messages${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Page;
  }

  describe("listing a conversation's messages", () => {
    it("says who sent each message: the user, the bot, or an agent from the console's inbox (with the member's id)", async () => {
      const { conversationId } = await conversation(botA, '919800000109', ['hello', 'a bot answer']);
      const agent = await seedBotAdmin(stack.gateway, botA.botId, 'admin');
      await repo.createOutbound(conversationId, 'text', { text: 'an agent answer' }, 'sent', undefined, agent.userId);
      const { messages } = await page(botA, conversationId);
      expect(messages.map((m) => [m.content.text, m.sentBy])).toEqual([
        ['hello', { kind: 'user' }],
        ['a bot answer', { kind: 'bot' }],
        ['an agent answer', { kind: 'agent', userId: agent.userId }],
      ]);
    });

    it('pages oldest first: first page, next pages by cursor, and a last page whose next is null', async () => {
      const { conversationId, ids } = await conversation(botA, '919800000101', ['m1', 'm2', 'm3', 'm4', 'm5']);
      const first = await page(botA, conversationId, '?limit=2');
      expect(first.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
      expect(first.messages[0]).toEqual({
        id: ids[0],
        conversationId,
        direction: 'inbound',
        type: 'text',
        content: { text: 'm1' },
        status: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        sentBy: { kind: 'user' },
      });
      expect(first.messages[1]).toMatchObject({ direction: 'outbound', content: { text: 'm2' }, status: 'sent', sentBy: { kind: 'bot' } });
      expect(first.next).toMatch(/^\d+$/);

      const second = await page(botA, conversationId, `?limit=2&cursor=${first.next}`);
      expect(second.messages.map((m) => m.content.text)).toEqual(['m3', 'm4']);
      expect(second.next).toMatch(/^\d+$/);

      const last = await page(botA, conversationId, `?limit=2&cursor=${second.next}`);
      expect(last.messages.map((m) => m.content.text)).toEqual(['m5']);
      expect(last.next).toBeNull();

      // Without parameters: 50 per page, so all five and no next.
      const all = await page(botA, conversationId);
      expect(all.messages.map((m) => m.id)).toEqual(ids);
      expect(all.next).toBeNull();
    });

    it('answers next: null on a full last page (no empty page to fetch)', async () => {
      const { conversationId, ids } = await conversation(botA, '919800000102', ['a', 'b', 'c', 'd']);
      const first = await page(botA, conversationId, '?limit=2');
      const second = await page(botA, conversationId, `?limit=2&cursor=${first.next}`);
      expect(second.messages.map((m) => m.id)).toEqual(ids.slice(2));
      expect(second.next).toBeNull();
      expect((await page(botA, conversationId, '?limit=4')).next).toBeNull();
      expect((await page(botA, conversationId, '?limit=200')).messages).toHaveLength(4);
      // A cursor past the end is an empty last page.
      expect(await page(botA, conversationId, `?cursor=${first.next!}0`)).toEqual({ messages: [], next: null });
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=', 'limit'],
      ['limit=1e2', 'limit'],
      ['limit=%202', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['cursor=abc', 'cursor'],
      ['cursor=-5', 'cursor'],
      ['cursor=', 'cursor'],
      ['cursor=12345678901234567890', 'cursor'],
      ['cursor=9223372036854775808', 'cursor'], // one past a Postgres bigint
      ['cursor=1&cursor=2', 'cursor'],
    ])('refuses ?%s with 400 naming %s', async (query, param) => {
      const { conversationId } = await conversation(botA, `9198000002${Math.floor(Math.random() * 100)}`, ['x']);
      const res = await get(botA, `/${conversationId}/messages?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string; status: string };
      expect(body.status).toBe('error');
      expect(body.message).toMatch(new RegExp(`^${param} `));
    });

    it("answers 404 for an unknown conversation or another bot's, and 401 for another bot's key", async () => {
      const { conversationId } = await conversation(botB, '919800000103', ['of bot B']);
      for (const id of [randomUUID(), 'not-a-uuid', conversationId]) {
        const res = await get(botA, `/${id}/messages`);
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ status: 'error', message: expect.stringContaining('No conversation') });
      }
      const foreignKey = await fetch(`${stack.url}/v1/bots/${botB.botId}/conversations/${conversationId}/messages`, { headers: auth(botA) });
      expect(foreignKey.status).toBe(401);
      expect((await fetch(`${stack.url}/v1/bots/${botB.botId}/conversations/${conversationId}/messages`)).status).toBe(401);
    });
  });

  describe('replying with an Idempotency-Key', () => {
    it('a repeat gets the first message (Idempotent-Replayed), one row; another reply under the key is a 422; a bad key a 400', async () => {
      const { conversationId } = await conversation(botA, 'web-idem', ['hi'], 'web');
      const url = `${stack.url}/v1/bots/${botA.botId}/conversations/${conversationId}/messages`;
      const send = (body: unknown, key: string) => postJson(url, body, { ...auth(botA), 'idempotency-key': key });
      const first = await send({ text: 'once', quickReplies: [{ title: 'Yes' }] }, 'reply-1');
      expect(first.status).toBe(202);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await send({ quickReplies: [{ title: 'Yes' }], text: 'once' }, 'reply-1');
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await again.json()).messageId).toBe((await first.json()).messageId);
      expect(await db.conversationMessage.count({ where: { conversationId, direction: 'outbound' } })).toBe(1);

      const other = await send({ text: 'changed' }, 'reply-1');
      expect(other.status).toBe(422);
      expect((await other.json()).message).toBe('This Idempotency-Key was already used with a different reply');
      expect((await send({ text: 'x' }, 'two words')).status).toBe(400);
      // The same key in another conversation is that conversation's own.
      const elsewhere = await conversation(botA, 'web-idem-2', ['hi'], 'web');
      const there = await postJson(`${stack.url}/v1/bots/${botA.botId}/conversations/${elsewhere.conversationId}/messages`, { text: 'once' }, { ...auth(botA), 'idempotency-key': 'reply-1' });
      expect(there.status).toBe(202);
      expect(there.headers.get('idempotent-replayed')).toBeNull();
      expect(await db.conversationMessage.count({ where: { conversationId, direction: 'outbound' } })).toBe(1);

      // A reply the queue did not take is recorded failed and frees its key: the same key then makes a new one.
      const failed = (await repo.createOutbound(conversationId, 'text', { text: 'unqueued' }, 'queued', `reply:${conversationId}:reply-2`))!;
      await repo.markUnqueued(failed.message.id, 'queue_unavailable', 'The reply could not be queued');
      expect(await db.conversationMessage.findUnique({ where: { id: failed.message.id } })).toMatchObject({ status: 'failed', replyKey: null });
      const retried = await send({ text: 'unqueued' }, 'reply-2');
      expect(retried.status).toBe(202);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect((await retried.json()).messageId).not.toBe(failed.message.id);
    });

    it('repeats that race each other leave one message: the unique key decides, the others get that one', async () => {
      const { conversationId } = await conversation(botA, 'web-idem-race', ['hi'], 'web');
      const key = `reply:${conversationId}:raced`;
      // Together, so that several pass the look-up before any insert and meet at the unique index.
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => repo.createOutbound(conversationId, 'text', { text: 'once' }, 'queued', key)));
      expect(outcomes.filter((o) => o!.created)).toHaveLength(1);
      expect(new Set(outcomes.map((o) => o!.message.id)).size).toBe(1);
      expect(await db.conversationMessage.count({ where: { conversationId, direction: 'outbound' } })).toBe(1);
    });
  });

  describe("erasing a user's conversations", () => {
    it('deletes the conversations and messages of that user with that bot only; they answer 404 afterwards', async () => {
      const user = '919800000301';
      const web = await conversation(botA, user, ['web 1', 'web 2'], 'web');
      const whatsapp = await conversation(botA, user, ['wa 1', 'wa 2', 'wa 3']);
      const otherUser = await conversation(botA, '919800000302', ['keep me', 'kept']);
      const otherBot = await conversation(botB, user, ['other bot', 'kept too']);
      // The callback delivery log keeps a copy of each message.received call: it goes with the user's messages.
      const logged = (bot: SdkBot, id: string) => ({ id, botId: bot.botId, kind: 'webhook', event: 'message.received', url: 'https://bot.example/hook', body: '{}' });
      const userCalls = [web.ids[0], whatsapp.ids[0], whatsapp.ids[2]];
      await db.callbackDelivery.createMany({ data: [...userCalls.map((id) => logged(botA, id)), logged(botA, otherUser.ids[0]), logged(botB, otherBot.ids[0])] });

      // One channel first.
      let res = await erase(botA, `?userId=${user}&channel=web`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: '1 conversation(s) deleted', status: 'success', deleted: 1 });
      expect((await get(botA, `/${web.conversationId}`)).status).toBe(404);
      expect((await get(botA, `/${whatsapp.conversationId}`)).status).toBe(200);

      res = await erase(botA, `?userId=${user}`);
      expect(await res.json()).toEqual({ message: '1 conversation(s) deleted', status: 'success', deleted: 1 });
      for (const gone of [web, whatsapp]) {
        expect((await get(botA, `/${gone.conversationId}`)).status).toBe(404);
        expect((await get(botA, `/${gone.conversationId}/messages`)).status).toBe(404);
        expect(await db.conversationMessage.count({ where: { id: { in: gone.ids } } })).toBe(0);
        expect(await db.conversation.count({ where: { id: gone.conversationId } })).toBe(0);
      }
      expect(await db.callbackDelivery.count({ where: { id: { in: userCalls } } })).toBe(0);
      expect(await db.callbackDelivery.count({ where: { id: { in: [otherUser.ids[0], otherBot.ids[0]] } } })).toBe(2);
      // The bot cannot write into an erased conversation either.
      const reply = await postJson(`${stack.url}/v1/bots/${botA.botId}/conversations/${whatsapp.conversationId}/messages`, { text: 'still there?' }, auth(botA));
      expect(reply.status).toBe(404);

      expect((await page(botA, otherUser.conversationId)).messages.map((m) => m.id)).toEqual(otherUser.ids);
      expect((await page(botB, otherBot.conversationId)).messages.map((m) => m.id)).toEqual(otherBot.ids);

      // Again: nothing left, still a success.
      res = await erase(botA, `?userId=${user}`);
      expect(res.status).toBe(200);
      expect((await res.json()).deleted).toBe(0);
    });

    it.each([
      ['', 'userId'],
      ['?userId=', 'userId'],
      ['?userId=%20%20', 'userId'],
      [`?userId=${'9'.repeat(129)}`, 'userId'],
      ['?userId=919800000401&channel=sms', 'channel'],
    ])('refuses %s with 400 naming %s', async (query, param) => {
      const res = await erase(botA, query);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string; status: string };
      expect(body).toMatchObject({ status: 'error' });
      expect(body.message).toMatch(new RegExp(`^${param} `));
    });

    it("refuses another bot's key with 401 and erases nothing", async () => {
      const kept = await conversation(botB, '919800000402', ['mine']);
      const res = await fetch(`${stack.url}/v1/bots/${botB.botId}/conversations?userId=919800000402`, { method: 'DELETE', headers: auth(botA) });
      expect(res.status).toBe(401);
      expect(await db.conversation.count({ where: { id: kept.conversationId } })).toBe(1);
    });
  });

  describe('retention', () => {
    const daysAgo = (d: number) => new Date(Date.now() - d * 24 * 3600 * 1000);

    it("the gateway's periodic sweep deletes messages past CONVERSATION_RETENTION_DAYS, and conversations left empty and unused", async () => {
      // Partly old: the old messages go, the conversation and its new message stay.
      const mixed = await conversation(botA, '919800000501', ['old 1', 'old 2', 'new']);
      // All old and unused since: everything goes.
      const stale = await conversation(botA, '919800000502', ['old a', 'old b']);
      // All old, but used since (a web session started): its messages go, the conversation stays.
      const used = await conversation(botA, 'c0ffee-web-user', ['old x'], 'web');
      await db.$executeRaw`UPDATE "conversation_messages" SET "created_at" = ${daysAgo(2)} WHERE "id" = ANY(${[...mixed.ids.slice(0, 2), ...stale.ids, ...used.ids]}::uuid[])`;
      await db.$executeRaw`UPDATE "conversations" SET "updated_at" = ${daysAgo(2)}, "last_inbound_at" = ${daysAgo(2)}, "created_at" = ${daysAgo(3)} WHERE "id" = ANY(${[mixed.conversationId, stale.conversationId, used.conversationId]}::uuid[])`;
      await db.$executeRaw`UPDATE "conversations" SET "updated_at" = now() WHERE "id" = ${used.conversationId}::uuid`;
      // The delivery log's copies of message.received calls do not outlive the messages; postbacks are not messages' copies.
      const call = (id: string, createdAt: Date, kind = 'webhook', event = 'message.received') => ({ id, botId: botA.botId, kind, event, url: 'https://bot.example/hook', body: '{}', createdAt });
      await db.callbackDelivery.createMany({ data: [call(stale.ids[0], daysAgo(2)), call(mixed.ids[2], new Date()), call(`${mixed.ids[0]}.sent`, daysAgo(2), 'postback', 'message.status')] });

      await eventually(
        async () => ((await db.conversationMessage.count({ where: { id: { in: [...mixed.ids.slice(0, 2), ...stale.ids, ...used.ids] } } })) === 0 ? true : undefined),
        15_000,
        'old messages swept',
      );
      await eventually(async () => ((await get(botA, `/${stale.conversationId}`)).status === 404 ? true : undefined), 15_000, 'stale conversation swept');

      const left = await page(botA, mixed.conversationId);
      expect(left.messages.map((m) => m.id)).toEqual([mixed.ids[2]]);
      expect((await get(botA, `/${used.conversationId}`)).status).toBe(200);
      expect(await page(botA, used.conversationId)).toEqual({ messages: [], next: null });
      await eventually(async () => ((await db.callbackDelivery.count({ where: { id: stale.ids[0] } })) === 0 ? true : undefined), 15_000, 'old call copies swept');
      expect(await db.callbackDelivery.count({ where: { id: { in: [mixed.ids[2], `${mixed.ids[0]}.sent`] } } })).toBe(2);
    });
  });
});
