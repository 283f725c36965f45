import 'reflect-metadata';
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import type { BotDefinitionRepository, BotInputRepository, BotTraceRepository, ChatPageRepository, ConversationRepository, InboxRepository, MembershipRepository } from '@platform/database';
import type { BotInputsService } from '../bots/bot-inputs.service.js';
import type { ConversationHandoffEvents, HandoffEventInput } from '../bots/conversation-handoff-events.js';
import type { ConversationService } from '../conversations/conversation.service.js';
import { InboxService, preview } from './inbox.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const CONV = 'c0f5c2a4-1b7e-4d3a-9f00-0c1d2e3f4a5b';
const ME = { userId: 'a1b2c3d4-0000-4000-8000-000000000001', email: 'ana@example.com' };

/** The id of the conversation's n-th message (1 the oldest). */
const msgId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function setup(opts: { status?: string | null; journey?: string | null; hosted?: boolean; messages?: number } = {}) {
  const calls: string[] = [];
  const told: HandoffEventInput[] = [];
  const conversation = { id: CONV, botId: BOT, channel: 'web', userId: 'u1', lastInboundAt: null, createdAt: new Date() };
  // The stored transcript, oldest first, as the repository keeps it (seq order).
  const stored = Array.from({ length: opts.messages ?? 0 }, (_, i) => ({
    id: msgId(i + 1),
    seq: BigInt(i + 1),
    conversationId: CONV,
    direction: i % 2 ? 'outbound' : 'inbound',
    type: 'text',
    content: { text: `line ${i + 1}` },
    status: null,
    createdAt: new Date(Date.UTC(2026, 10, 27, 0, 0, i)),
  }));
  const conversations = {
    find: async (b: string, id: string) => (b === BOT && id === CONV ? conversation : null),
    latestMessages: async (_c: string, limit: number) => (calls.push(`latest:${limit}`), stored.slice(-limit)),
    messagesBefore: async (_c: string, before: string, limit: number) => {
      calls.push(`before:${before}:${limit}`);
      const at = stored.findIndex((m) => m.id === before);
      return at < 0 ? null : stored.slice(Math.max(0, at - limit), at);
    },
  } as unknown as ConversationRepository;
  const state =
    opts.status === null ? null : { status: opts.status ?? 'handoff', version: 1, journey: opts.journey === undefined ? 'welcome' : opts.journey, node: 'agent', variables: {}, updatedAt: new Date() };
  const trace = { state: async () => state } as unknown as BotTraceRepository;
  const inbox = {
    assign: async (_b: string, _c: string, u: string | null) => void calls.push(`assign:${u}`),
    markRead: async (_c: string, u: string, upTo: string | null) => (calls.push(`read:${u}:${upTo}`), upTo === 'elsewhere' ? null : 5n),
    handbackToJourney: async (_b: string, _c: string, slug: string) => (calls.push(`journey:${slug}`), { seq: 7n }),
    state: async () => ({ assignedUserId: null, assigneeEmail: null }),
    readSeq: async () => 0n,
    latestSteps: async () => [],
    notes: async () => [],
    // Every 4th stored message (outbound) an agent's; the 8th's account deleted since.
    agentSenders: async (ids: string[]) =>
      new Map(ids.filter((id) => Number(id.slice(-12)) % 4 === 0).map((id) => [id, { userId: ME.userId, email: Number(id.slice(-12)) % 8 === 0 ? null : ME.email }])),
  } as unknown as InboxRepository;
  const inputs = { handoff: async () => void calls.push('handoff') } as unknown as BotInputRepository;
  const botInputs = {
    hosted: async () => opts.hosted ?? true,
    handback: async () => (state?.status === 'handoff' ? 'queued' : 'not_in_handoff'),
    wake: async (_b: string, _c: string, seq: bigint) => void calls.push(`wake:${seq}`),
  } as unknown as BotInputsService;
  const definitions = {
    publishedVersion: async () => 1,
    findVersion: async () => ({ definition: { journeys: [{ slug: 'welcome' }, { slug: 'feedback' }] } }),
  } as unknown as BotDefinitionRepository;
  const members = { roleOf: async () => null, emailOf: async () => null } as unknown as MembershipRepository;
  const replies = {
    reply: async (...args: unknown[]) => (calls.push(args[4] === undefined ? 'reply' : `reply by ${String(args[4])}`), { view: { id: 'm1' }, replayed: false }),
  } as unknown as ConversationService;
  const events = { publish: async (e: HandoffEventInput) => void told.push(e) } as unknown as ConversationHandoffEvents;
  return { calls, told, service: new InboxService(conversations, inbox, trace, inputs, botInputs, definitions, members, replies, events, {} as ChatPageRepository) };
}

describe('InboxService', () => {
  it('refuses a bad filter, channel, cursor or limit with a 400 naming it', async () => {
    const { service } = setup();
    await expect(service.list(BOT, ME.userId, { filter: 'open' })).rejects.toThrow(/^filter must be one of/);
    await expect(service.list(BOT, ME.userId, { channel: 'sms' })).rejects.toThrow(/^channel must be/);
    await expect(service.list(BOT, ME.userId, { cursor: '1_x' })).rejects.toThrow(/^cursor /);
    await expect(service.list(BOT, ME.userId, { limit: '0' })).rejects.toBeInstanceOf(BadRequestException);
  });

  it('takes over: handoff, assigned to the member, one taken_over event; 409 for a bot that is not hosted', async () => {
    const { service, calls, told } = setup({ status: 'waiting' });
    await service.takeOver(BOT, CONV, ME);
    expect(calls).toEqual(['handoff', `assign:${ME.userId}`]);
    expect(told).toEqual([expect.objectContaining({ type: 'conversation.taken_over', by: 'member', member: ME, conversationId: CONV })]);
    await expect(setup({ hosted: false }).service.takeOver(BOT, CONV, ME)).rejects.toBeInstanceOf(ConflictException);
    await expect(service.takeOver(BOT, 'nope', ME)).rejects.toBeInstanceOf(NotFoundException);
  });

  it('replies only while with an agent, and marks the conversation read', async () => {
    const withBot = setup({ status: 'waiting' });
    await expect(withBot.service.reply(BOT, CONV, ME.userId, { text: 'hi' })).rejects.toThrow(/Take the conversation over/);
    expect(withBot.calls).toEqual([]);
    const withAgent = setup();
    await withAgent.service.reply(BOT, CONV, ME.userId, { text: 'hi' });
    // Kept as the agent's (not the bot's), and the agent's own read mark moves up to their reply.
    expect(withAgent.calls).toEqual([`reply by ${ME.userId}`, `read:${ME.userId}:m1`]);
  });

  it("marks only the member's own read mark, up to the message shown; a message of another conversation is a 400 naming it", async () => {
    const { service, calls } = setup();
    await service.markRead(BOT, CONV, ME.userId, 'shown');
    await service.markRead(BOT, CONV, ME.userId);
    expect(calls).toEqual([`read:${ME.userId}:shown`, `read:${ME.userId}:null`]);
    await expect(service.markRead(BOT, CONV, ME.userId, 'elsewhere')).rejects.toThrow(/^messageId must be a message of conversation/);
  });

  it('hands back to the bot or to a journey of the running version; an unknown journey is a 400; not with an agent a 409', async () => {
    const back = setup();
    await back.service.handBack(BOT, CONV, ME, undefined);
    expect(back.calls).toEqual(['assign:null']);
    expect(back.told.map((e) => [e.type, e.journeySlug])).toEqual([['conversation.handed_back', null]]);

    const toJourney = setup();
    await toJourney.service.handBack(BOT, CONV, ME, 'feedback');
    expect(toJourney.calls).toEqual(['journey:feedback', 'wake:7', 'assign:null']);
    expect(toJourney.told[0]).toMatchObject({ journeySlug: 'feedback' });
    await expect(setup().service.handBack(BOT, CONV, ME, 'nope')).rejects.toThrow(/journeySlug must name a journey of the bot \(welcome, feedback\)/);
    const ended = setup({ status: 'ended' });
    await expect(ended.service.handBack(BOT, CONV, ME, undefined)).rejects.toThrow(/is not with an agent/);
    expect(ended.told).toEqual([]);
  });

  it('assigns only members of the bot', async () => {
    await expect(setup().service.assign(BOT, CONV, ME.userId)).rejects.toThrow(/member of this bot/);
    expect(await setup().service.assign(BOT, CONV, null)).toBeNull();
  });

  it('the view shows the newest 200 messages and says whether older ones exist, from one read of 201', async () => {
    const texts = (ms: Array<{ content: unknown }>) => ms.map((m) => (m.content as { text: string }).text);
    const long = setup({ messages: 231 });
    const view = await long.service.view(BOT, CONV, ME.userId);
    expect(long.calls).toEqual(['latest:201']);
    expect(view.messages).toHaveLength(200);
    expect(texts(view.messages).slice(0, 2)).toEqual(['line 32', 'line 33']);
    expect(texts(view.messages).at(-1)).toBe('line 231');
    expect(view.olderMessages).toBe(true);
    expect(view.conversation.unread).toBe(100); // the user's messages among the 200 shown; the 201st read (line 31, the user's) is not counted
    const exact = await setup({ messages: 200 }).service.view(BOT, CONV, ME.userId);
    expect([exact.messages.length, exact.olderMessages]).toEqual([200, false]);
    const short = await setup({ messages: 3 }).service.view(BOT, CONV, ME.userId);
    expect([texts(short.messages), short.olderMessages]).toEqual([['line 1', 'line 2', 'line 3'], false]);
  });

  it('names who sent each message: the user, the bot, or the agent who answered (by e-mail, none once the account is gone), in the view and further back', async () => {
    const { service } = setup({ messages: 9 });
    const view = await service.view(BOT, CONV, ME.userId);
    expect(view.messages.map((m) => m.sentBy)).toEqual([
      { kind: 'user' },
      { kind: 'bot' },
      { kind: 'user' },
      { kind: 'agent', userId: ME.userId, email: ME.email },
      { kind: 'user' },
      { kind: 'bot' },
      { kind: 'user' },
      { kind: 'agent', userId: ME.userId, email: null },
      { kind: 'user' },
    ]);
    const older = await service.olderMessages(BOT, CONV, { before: msgId(5), limit: '2' });
    expect(older.messages.map((m) => m.sentBy)).toEqual([{ kind: 'user' }, { kind: 'agent', userId: ME.userId, email: ME.email }]);
  });

  it('reads further back: the messages just before `before`, oldest first, and whether older ones are left', async () => {
    const texts = (ms: Array<{ content: unknown }>) => ms.map((m) => (m.content as { text: string }).text);
    const { service, calls } = setup({ messages: 230 });
    const first = await service.olderMessages(BOT, CONV, { before: msgId(31), limit: '20' });
    expect(calls).toEqual([`before:${msgId(31)}:21`]);
    expect(texts(first.messages)).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i + 11}`));
    expect(first.olderMessages).toBe(true);
    const rest = await service.olderMessages(BOT, CONV, { before: first.messages[0]!.id, limit: '20' });
    expect(texts(rest.messages)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i + 1}`));
    expect(rest.olderMessages).toBe(false);
    // Exactly `limit` left: all of them, and none older.
    const exact = await service.olderMessages(BOT, CONV, { before: msgId(11), limit: '10' });
    expect([exact.messages.length, exact.olderMessages]).toEqual([10, false]);
    // The default page is 50; the oldest message has nothing before it.
    expect((await service.olderMessages(BOT, CONV, { before: msgId(131) })).messages).toHaveLength(50);
    expect(await service.olderMessages(BOT, CONV, { before: msgId(1), limit: '200' })).toEqual({ messages: [], olderMessages: false });
  });

  it('refuses a bad before or limit with a 400 naming it; an unknown conversation is a 404', async () => {
    const { service, calls } = setup({ messages: 5 });
    await expect(service.olderMessages(BOT, CONV, {})).rejects.toThrow(/^before must be the id of a message/);
    await expect(service.olderMessages(BOT, CONV, { before: 'x' })).rejects.toThrow(/^before must be the id of a message/);
    await expect(service.olderMessages(BOT, CONV, { before: [msgId(2), msgId(3)] })).rejects.toBeInstanceOf(BadRequestException);
    for (const limit of ['0', '201', '-1', '1.5', 'ten', ['5', '6']])
      await expect(service.olderMessages(BOT, CONV, { before: msgId(3), limit })).rejects.toThrow(/^limit must be an integer from 1 to 200$/);
    expect(calls).toEqual([]); // refused before any read
    await expect(service.olderMessages(BOT, CONV, { before: msgId(99) })).rejects.toThrow(`before must be a message of conversation ${CONV}`);
    await expect(service.olderMessages(BOT, 'c0f5c2a4-1b7e-4d3a-9f00-000000000000', { before: msgId(3) })).rejects.toBeInstanceOf(NotFoundException);
    await expect(service.olderMessages(BOT, 'nope', { before: msgId(3) })).rejects.toBeInstanceOf(NotFoundException);
    expect((await service.olderMessages(BOT, CONV, { before: msgId(3), limit: '200' })).messages).toHaveLength(2);
  });

  it('previews a message by its text, else its kind', () => {
    expect(preview('text', { text: 'hello' })).toBe('hello');
    expect(preview('image', { image: { url: 'x' } })).toBe('Image');
    expect(preview('carousel', { cards: [{}, {}] })).toBe('2 cards');
    // A user's file: its kind and name, not the message type.
    expect(preview('attachment', { attachment: { url: 'https://x/f/1', mimeType: 'text/plain', filename: 'notes.txt', size: 2048 } })).toBe('Text file: notes.txt (2 KB)');
    expect(preview('media', { media: { kind: 'document', id: '1', filename: 'contract.pdf' } })).toBe('Document: contract.pdf');
    expect(preview('text', { text: 'x'.repeat(200) })).toHaveLength(120);
  });
});
