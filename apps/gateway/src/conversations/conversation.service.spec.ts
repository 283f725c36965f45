import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { BadRequestException, ConflictException, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import type { CoreEnv } from '@platform/config';
import { WEB_CHAT_EVENT, WEB_CHAT_TYPING_EVENT, WHATSAPP_SESSION_WINDOW_MS, type SendConversationMessageDto, type WebhookDelivery } from '@platform/contracts';
import type { ConversationMessageRow, ConversationRepository, InboundMessage } from '@platform/database';
import { RedisUnavailableError, type ConversationReplyQueue } from '@platform/queue';
import { ReplyDelivery, type SdkEventStore } from '@platform/conversations';
import type { BotInputsService } from '../bots/bot-inputs.service.js';
import type { WebhookDispatcher } from '../callbacks/webhook-dispatcher.service.js';
import { ConversationService } from './conversation.service.js';
import { WhatsAppWindowClosedError } from './whatsapp-window-closed.error.js';

const BOT = randomUUID();
const core = { REDIS_COMMAND_TIMEOUT_MS: 100 } as CoreEnv;

interface FakeConversation {
  id: string;
  botId: string;
  channel: 'web' | 'whatsapp';
  userId: string;
  senderId: string | null;
  lastInboundAt: Date | null;
}

/** ConversationRepository in memory: the statements the service relies on, as the repository words them. */
class FakeConversations {
  readonly conversations: FakeConversation[] = [];
  readonly messages: ConversationMessageRow[] = [];
  private seq = 0n;

  add(c: Partial<FakeConversation> & Pick<FakeConversation, 'channel'>): FakeConversation {
    const conversation = { id: randomUUID(), botId: BOT, userId: 'u1', senderId: null, lastInboundAt: null, ...c };
    this.conversations.push(conversation);
    return conversation;
  }

  private row(conversationId: string, fields: Partial<ConversationMessageRow>): ConversationMessageRow {
    const row: ConversationMessageRow = {
      id: randomUUID(),
      seq: ++this.seq,
      // As the trigger counts: within the conversation only.
      position: this.messages.filter((m) => m.conversationId === conversationId).length + 1,
      conversationId,
      direction: 'outbound',
      type: 'text',
      content: {},
      providerMessageId: null,
      status: null,
      attempts: 0,
      lastErrorCode: null,
      lastErrorText: null,
      webhookSettledAt: null,
      createdAt: new Date('2026-01-01T00:00:00Z'),
      ...fields,
    };
    this.messages.push(row);
    return row;
  }

  async recordInbound(m: InboundMessage) {
    const existing = m.providerMessageId ? this.messages.find((r) => r.providerMessageId === m.providerMessageId) : undefined;
    if (existing) return { message: existing, created: false };
    const conversation = this.conversations.find((c) => c.botId === m.botId && c.channel === m.channel && c.userId === m.userId) ?? this.add({ channel: m.channel, userId: m.userId });
    conversation.lastInboundAt = m.at;
    return { message: this.row(conversation.id, { direction: 'inbound', type: m.type, content: m.content as object, providerMessageId: m.providerMessageId ?? null }), created: true };
  }

  async find(botId: string, id: string) {
    return this.conversations.find((c) => c.botId === botId && c.id === id) ?? null;
  }

  /** Replies by their reply key. */
  readonly keyed = new Map<string, ConversationMessageRow>();

  async createOutbound(conversationId: string, type: string, content: object, status: 'queued', replyKey?: string) {
    if (!this.conversations.some((c) => c.id === conversationId)) return null;
    const held = replyKey === undefined ? undefined : this.keyed.get(replyKey);
    if (held) return { message: held, created: false };
    const message = this.row(conversationId, { type, content, status });
    if (replyKey !== undefined) this.keyed.set(replyKey, message);
    return { message, created: true };
  }

  async markSent(id: string, providerMessageId: string) {
    const row = this.messages.find((r) => r.id === id && (r.status === 'queued' || r.status === 'processing'));
    if (row) Object.assign(row, { status: 'sent', providerMessageId });
  }

  async markUnqueued(id: string, code: string, text: string) {
    await this.markAttemptFailed(id, code, text, true);
    for (const [key, row] of this.keyed) if (row.id === id) this.keyed.delete(key);
  }

  async markAttemptFailed(id: string, code: string, text: string, final: boolean) {
    const row = this.messages.find((r) => r.id === id && (r.status === 'queued' || r.status === 'processing'));
    if (row) Object.assign(row, { lastErrorCode: code, lastErrorText: text, ...(final ? { status: 'failed' } : {}) });
  }

  async listMessages(conversationId: string, afterSeq: bigint | null, limit: number) {
    return this.messages.filter((r) => r.conversationId === conversationId && (afterSeq === null || r.seq > afterSeq)).slice(0, limit);
  }
}

function setup(opts: { queue?: 'ok' | 'fails' | 'hangs'; botInputFails?: boolean; taker?: 'outside' | 'hosted' | 'mirrored' } = {}) {
  const repo = new FakeConversations();
  const botInputs: Array<{ botId: string; conversationId: string; messageId: string }> = [];
  const hostedInputs = {
    message: async (botId: string, conversationId: string, messageId: string) => {
      if (opts.botInputFails) throw new Error('Connection is closed.');
      botInputs.push({ botId, conversationId, messageId });
      return opts.taker ?? 'mirrored';
    },
  } as unknown as BotInputsService;
  const deliveries: WebhookDelivery[] = [];
  const appended: Array<{ botId: string; userId: string; event: { code: string; data: { code: string; data: string } } }> = [];
  const jobs: Array<{ name: string; data: unknown; opts: unknown }> = [];
  const dispatcher = { enqueue: async (_botId: string, delivery: WebhookDelivery) => void deliveries.push(delivery) } as unknown as WebhookDispatcher;
  const events = { append: async (botId: string, userId: string, event: never) => (appended.push({ botId, userId, event }), { id: '1-0', live: 1 }) } as unknown as SdkEventStore;
  const replies = {
    add: async (name: string, data: unknown, jobOpts: unknown) => {
      if (opts.queue === 'fails') throw new Error('Connection is closed.');
      if (opts.queue === 'hangs') return new Promise(() => undefined);
      jobs.push({ name, data, opts: jobOpts });
      return {};
    },
  } as unknown as ConversationReplyQueue;
  const conversations = repo as unknown as ConversationRepository;
  const service = new ConversationService(conversations, dispatcher, new ReplyDelivery(conversations, events, core, replies), hostedInputs);
  return { service, repo, deliveries, appended, jobs, botInputs };
}

const text = (t: string): SendConversationMessageDto => ({ text: t }) as SendConversationMessageDto;

describe('ConversationService', () => {
  describe('receive', () => {
    const inbound: InboundMessage = { botId: BOT, channel: 'whatsapp', userId: '15550001111', type: 'text', content: { text: 'hi' }, providerMessageId: 'wamid.1', at: new Date() };

    it("records the user's message and queues its message.received call to the bot", async () => {
      const { service, deliveries } = setup();
      const { view, created } = await service.receive(inbound);
      expect(created).toBe(true);
      expect(view).toMatchObject({ direction: 'inbound', type: 'text', content: { text: 'hi' } });
      expect(deliveries).toEqual([
        expect.objectContaining({ type: 'message.received', id: view.id, botId: BOT, conversationId: view.conversationId, channel: 'whatsapp', userId: '15550001111', message: view }),
      ]);
    });

    it("hands every recorded message (a repeat too: the inputs' table keeps one) to the hosted-bot inputs, then the webhook mirror", async () => {
      const { service, botInputs, deliveries } = setup();
      const first = await service.receive(inbound);
      // A repeat answers the first one's place too (the chat page moves its bubble there).
      expect(first.seq).toMatch(/^\d+$/);
      expect((await service.receive(inbound)).seq).toBe(first.seq);
      expect(botInputs).toEqual([
        { botId: BOT, conversationId: first.view.conversationId, messageId: first.view.id },
        { botId: BOT, conversationId: first.view.conversationId, messageId: first.view.id },
      ]);
      expect(deliveries).toHaveLength(2);
    });

    it('queues no webhook call for a hosted bot without a webhook (its input took the message), one for an outside bot', async () => {
      const hosted = setup({ taker: 'hosted' });
      await hosted.service.receive(inbound);
      expect(hosted.deliveries).toEqual([]);
      const outside = setup({ taker: 'outside' });
      await outside.service.receive(inbound);
      expect(outside.deliveries).toHaveLength(1);
    });

    it('rejects (the caller answers 5xx) when the bot input could not be stored or queued', async () => {
      const { service, deliveries } = setup({ botInputFails: true });
      await expect(service.receive(inbound)).rejects.toThrow('Connection is closed.');
      expect(deliveries).toEqual([]);
    });

    it("acknowledges a new WhatsApp message once (read receipt and typing job keyed by the message), a web one with a typing event on the user's stream", async () => {
      const { service, jobs, appended } = setup();
      const { view } = await service.receive(inbound);
      await service.receive(inbound); // Meta's repeat: acknowledged already
      expect(jobs).toEqual([{ name: 'read', data: { kind: 'read', messageId: view.id, botId: BOT }, opts: { jobId: `read-${view.id}` } }]);
      await service.receive({ ...inbound, channel: 'web', userId: 'visitor-9', providerMessageId: 'web:1' });
      expect(appended).toHaveLength(1);
      expect(appended[0]).toMatchObject({ botId: BOT, userId: 'visitor-9', event: { code: WEB_CHAT_TYPING_EVENT.platformCode, data: { code: WEB_CHAT_TYPING_EVENT.code } } });
      expect(JSON.parse(appended[0].event.data.data)).toMatchObject({ typing: true });
    });

    it('records the message although its acknowledgement cannot be queued (Redis down)', async () => {
      const { service, deliveries } = setup({ queue: 'fails' });
      expect((await service.receive(inbound)).created).toBe(true);
      expect(deliveries).toHaveLength(1);
    });

    it('queues the call again for a repeated message the bot has not taken, and not once it has', async () => {
      const { service, repo, deliveries } = setup();
      await service.receive(inbound);
      expect((await service.receive(inbound)).created).toBe(false);
      expect(deliveries).toHaveLength(2);
      repo.messages[0].webhookSettledAt = new Date();
      await service.receive(inbound);
      expect(deliveries).toHaveLength(2);
    });
  });

  describe('reply', () => {
    it("puts a web-chat reply on the user's event stream and records it sent, queueing nothing", async () => {
      const { service, repo, appended, jobs } = setup();
      const conversation = repo.add({ channel: 'web', userId: 'visitor-1' });
      const { view } = await service.reply(BOT, conversation.id, text('hello'));
      expect(view).toMatchObject({ conversationId: conversation.id, direction: 'outbound', status: 'sent', content: { text: 'hello' } });
      // The page's copy also says where the message stands in the conversation (`seq`): the API's view does not.
      const seq = String(repo.messages[0].position);
      expect(appended).toEqual([{ botId: BOT, userId: 'visitor-1', event: { code: WEB_CHAT_EVENT.platformCode, data: { code: WEB_CHAT_EVENT.code, data: JSON.stringify({ ...view, seq }) } } }]);
      expect(view).not.toHaveProperty('seq');
      expect(repo.messages[0]).toMatchObject({ status: 'sent', providerMessageId: `web:${view.id}` });
      expect(jobs).toEqual([]);
    });

    it('queues a WhatsApp reply for the channel worker, the job keyed by the message id', async () => {
      const { service, repo, jobs } = setup();
      const conversation = repo.add({ channel: 'whatsapp', senderId: 's1', lastInboundAt: new Date(Date.now() - 60_000) });
      const { view } = await service.reply(BOT, conversation.id, text('hello'));
      expect(view.status).toBe('queued');
      expect(jobs).toEqual([{ name: 'whatsapp', data: { messageId: view.id, botId: BOT }, opts: { jobId: view.id } }]);
    });

    it('with an Idempotency-Key: a repeat gets the first message, replayed, and nothing is queued again; another reply under the key is a 422', async () => {
      const { service, repo, jobs } = setup();
      const conversation = repo.add({ channel: 'whatsapp', senderId: 's1', lastInboundAt: new Date(Date.now() - 60_000) });
      const reply = { text: 'hello', quickReplies: [{ title: 'Yes' }] } as SendConversationMessageDto;
      const first = await service.reply(BOT, conversation.id, reply, 'k-1');
      const again = await service.reply(BOT, conversation.id, { ...reply, quickReplies: [{ title: 'Yes' }] } as SendConversationMessageDto, 'k-1');
      expect(first.replayed).toBe(false);
      expect(again).toMatchObject({ replayed: true, view: { id: first.view.id } });
      expect(jobs).toHaveLength(1);
      await expect(service.reply(BOT, conversation.id, text('hello, changed'), 'k-1')).rejects.toBeInstanceOf(UnprocessableEntityException);
      // Another key is another reply.
      expect((await service.reply(BOT, conversation.id, reply, 'k-2')).replayed).toBe(false);
      expect(jobs).toHaveLength(2);
    });

    it("refuses a WhatsApp reply once the user's 24-hour window has closed, recording nothing", async () => {
      const { service, repo, jobs } = setup();
      const closed = repo.add({ channel: 'whatsapp', senderId: 's1', lastInboundAt: new Date(Date.now() - WHATSAPP_SESSION_WINDOW_MS - 1000) });
      const never = repo.add({ channel: 'whatsapp', senderId: 's1', userId: 'u2' });
      await expect(service.reply(BOT, closed.id, text('late'))).rejects.toBeInstanceOf(WhatsAppWindowClosedError);
      await expect(service.reply(BOT, never.id, text('late'))).rejects.toBeInstanceOf(WhatsAppWindowClosedError);
      expect(repo.messages).toEqual([]);
      expect(jobs).toEqual([]);
    });

    it('refuses a WhatsApp reply when the number the user wrote to is no longer set up', async () => {
      const { service, repo } = setup();
      const conversation = repo.add({ channel: 'whatsapp', senderId: null, lastInboundAt: new Date() });
      await expect(service.reply(BOT, conversation.id, text('hello'))).rejects.toBeInstanceOf(ConflictException);
    });

    it.each(['fails', 'hangs'] as const)('marks the reply failed and answers Redis unavailable when the queue %s', async (queue) => {
      const { service, repo } = setup({ queue });
      const conversation = repo.add({ channel: 'whatsapp', senderId: 's1', lastInboundAt: new Date() });
      await expect(service.reply(BOT, conversation.id, text('hello'), 'k-1')).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(repo.messages[0]).toMatchObject({ status: 'failed', lastErrorCode: 'queue_unavailable' });
      expect(repo.keyed.size).toBe(0); // nothing was sent: the retry with the same key makes the reply anew
    });

    it('refuses a body that is not exactly one kind of message, and a conversation of another bot', async () => {
      const { service, repo } = setup();
      const conversation = repo.add({ channel: 'web' });
      await expect(service.reply(BOT, conversation.id, { text: 'a', image: { url: 'https://x.test/a.png' } } as SendConversationMessageDto)).rejects.toBeInstanceOf(BadRequestException);
      await expect(service.reply(randomUUID(), conversation.id, text('hello'))).rejects.toBeInstanceOf(NotFoundException);
      await expect(service.reply(BOT, 'not-a-uuid', text('hello'))).rejects.toBeInstanceOf(NotFoundException);
      expect(repo.messages).toEqual([]);
    });
  });

  describe('list', () => {
    async function withMessages(n: number) {
      const s = setup();
      const conversation = s.repo.add({ channel: 'web' });
      for (let i = 0; i < n; i++) await s.service.reply(BOT, conversation.id, text(`m${i}`));
      return { ...s, conversation };
    }

    it('pages with the last seq of a page as the next cursor, and null after the last page', async () => {
      const { service, conversation } = await withMessages(3);
      const first = await service.list(BOT, conversation.id, undefined, '2');
      expect(first.messages.map((m) => m.content)).toEqual([{ text: 'm0' }, { text: 'm1' }]);
      expect(first.next).toBe('2');
      const second = await service.list(BOT, conversation.id, first.next, '2');
      expect(second.messages.map((m) => m.content)).toEqual([{ text: 'm2' }]);
      expect(second.next).toBeNull();
    });

    it('ends with a null cursor when the page is exactly full', async () => {
      const { service, conversation } = await withMessages(2);
      expect((await service.list(BOT, conversation.id, undefined, '2')).next).toBeNull();
    });

    it.each([['abc'], ['-1'], ['99999999999999999999'], [['1']]])('refuses the cursor %j', async (cursor) => {
      const { service, conversation } = await withMessages(1);
      await expect(service.list(BOT, conversation.id, cursor, undefined)).rejects.toThrow('cursor must be the next value of a previous page');
    });

    it.each([['0'], ['201'], ['1.5'], ['ten']])('refuses the limit %j', async (limit) => {
      const { service, conversation } = await withMessages(1);
      await expect(service.list(BOT, conversation.id, undefined, limit)).rejects.toThrow('limit must be an integer from 1 to 200');
    });
  });
});
