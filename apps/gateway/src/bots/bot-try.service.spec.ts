import 'reflect-metadata';
import { BadRequestException, ConflictException, ForbiddenException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { UserService } from '@platform/accounts';
import type { AuthEnv } from '@platform/config';
import { chatUserId } from '@platform/contracts';
import type { BotTryStepFeed } from '@platform/database';
import type { StreamTicketStore, TicketHolder } from '../message-stream/stream-ticket.store.js';
import type { BotTraceRepository, BotTryRepository, Prisma } from '@platform/database';
import { BotDefinitionService } from './bot-definition.service.js';
import type { BotInputsService } from './bot-inputs.service.js';
import { BotTryService } from './bot-try.service.js';
import { InvalidBotDefinitionError } from './invalid-bot-definition.error.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const CONV = '7d0c8f8e-3c1b-4a53-9b7e-2f0f6a1d9e01';
const valid = {
  schemaVersion: 1,
  startJourney: 'main',
  variables: [],
  journeys: [{ slug: 'main', start: 'hi', nodes: [{ id: 'hi', kind: 'end', text: 'Hi' }], edges: [] }],
};

/** The try-it repository in memory: the draft, the test conversations, the inputs. */
class FakeTries {
  draft: Prisma.JsonValue | null = null;
  conversations = new Map<string, { botId: string; testVersion: number }>();
  inputs: Array<{ conversationId: string; payload?: string; text?: string; buttonPayload?: string }> = [];
  userIds: string[] = [];
  async start(botId: string, _by: string, payload: string, check: (d: Prisma.JsonValue) => void, userId: string) {
    if (!this.draft) return null;
    check(this.draft);
    this.userIds.push(userId);
    this.conversations.set(CONV, { botId, testVersion: -1 });
    this.inputs.push({ conversationId: CONV, payload });
    return { conversationId: CONV, version: -1, seq: BigInt(this.inputs.length) };
  }
  async find(botId: string, id: string) {
    const c = this.conversations.get(id);
    return c && c.botId === botId ? { id, testVersion: c.testVersion } : null;
  }
  async message(_botId: string, conversationId: string, content: { text: string; payload?: string }) {
    this.inputs.push({ conversationId, text: content.text, buttonPayload: content.payload });
    return BigInt(this.inputs.length);
  }
  async messages() {
    return [{ id: 'm1', direction: 'outbound', type: 'text', content: { text: 'Hi' }, status: 'sent', createdAt: new Date('2026-12-15T10:00:00Z') }];
  }
}
const trace = {
  testSteps: async () => [
    {
      id: 1n,
      startedAt: new Date('2026-12-15T10:00:00Z'),
      version: -1,
      journey: 'main',
      node: 'hi',
      kind: 'end',
      outcome: 'ok',
      error: null,
      durationMs: 1,
      sandboxMs: null,
      variables: { name: 'Ann' },
    },
  ],
  state: async () => ({ status: 'ended', version: null, journey: null, node: null, variables: {}, updatedAt: new Date('2026-12-15T10:00:01Z') }),
};

describe('BotTryService', () => {
  let tries: FakeTries;
  let woken: Array<[string, string, bigint]>;
  let service: BotTryService;
  let tickets: Map<string, TicketHolder>;
  let roles: Record<string, string>;
  beforeEach(() => {
    tries = new FakeTries();
    woken = [];
    tickets = new Map();
    roles = { u1: 'developer', v1: 'viewer' };
    const inputs = { wake: async (botId: string, id: string, seq: bigint) => void woken.push([botId, id, seq]) } as unknown as BotInputsService;
    const store = {
      issue: async (holder: TicketHolder) => (tickets.set(`bst_${tickets.size}`, holder), `bst_${tickets.size - 1}`),
      redeem: async (t: string) => {
        const holder = tickets.get(t) ?? null;
        tickets.delete(t);
        return holder;
      },
    } as unknown as StreamTicketStore;
    const users = { roleOn: async (userId: string) => roles[userId] ?? null } as unknown as UserService;
    const feed = { subscribe: async () => () => undefined } as unknown as BotTryStepFeed;
    service = new BotTryService(tries as unknown as BotTryRepository, trace as unknown as BotTraceRepository, new BotDefinitionService({} as never), inputs, feed, store, users, {
      AUTH_ACCESS_TOKEN_TTL_SECONDS: 900,
    } as AuthEnv);
  });

  it('refuses to try without a saved draft (409), and an invalid draft with its errors (400)', async () => {
    await expect(service.start(BOT, 'u1', undefined)).rejects.toBeInstanceOf(ConflictException);
    tries.draft = { ...valid, startJourney: 'nowhere' };
    await expect(service.start(BOT, 'u1', undefined)).rejects.toBeInstanceOf(InvalidBotDefinitionError);
    expect(woken).toEqual([]);
  });

  it('starts a test conversation with the payload as a JSON string and wakes the runtime for it', async () => {
    tries.draft = valid;
    await expect(service.start(BOT, 'u1', [1])).rejects.toBeInstanceOf(BadRequestException);
    const started = await service.start(BOT, 'u1', { JourneySlug: 'main' });
    expect(started).toMatchObject({ conversationId: CONV, version: -1 });
    expect(tries.inputs).toEqual([{ conversationId: CONV, payload: '{"JourneySlug":"main"}' }]);
    expect(woken).toEqual([[BOT, CONV, 1n]]);
    // The hosted chat page as the test's own chat user: a fresh token in the fragment, the conversation stored under its hash only.
    const token = /^\/web\/bot\?botId=[0-9a-f-]+&enableSpeech=false#ymAuthenticationToken=([A-Za-z0-9_-]{32})$/.exec(started.chatUrl)?.[1];
    expect(token).toBeDefined();
    expect(tries.userIds).toEqual([chatUserId(token!)]);
    const again = await service.start(BOT, 'u1', undefined);
    expect(again.chatUrl).not.toBe(started.chatUrl);
  });

  it("opens the trace stream only with this test's unused ticket, for a developer", async () => {
    tries.draft = valid;
    await service.start(BOT, 'u1', undefined);
    const reply = {} as never;
    const req = {} as never;
    const { ticket } = await service.streamTicket(BOT, CONV, 'u1');
    await expect(service.stream(BOT, '7d0c8f8e-3c1b-4a53-9b7e-2f0f6a1d9e02', ticket, req, reply)).rejects.toBeInstanceOf(UnauthorizedException);
    // used (even by a refused call): gone
    await expect(service.stream(BOT, CONV, ticket, req, reply)).rejects.toBeInstanceOf(UnauthorizedException);
    roles.u1 = 'viewer';
    const second = await service.streamTicket(BOT, CONV, 'u1');
    await expect(service.stream(BOT, CONV, second.ticket, req, reply)).rejects.toBeInstanceOf(ForbiddenException);
    await expect(service.streamTicket(BOT, '7d0c8f8e-3c1b-4a53-9b7e-2f0f6a1d9e02', 'u1')).rejects.toBeInstanceOf(NotFoundException);
  });

  it("takes the tester's messages (text required, trimmed; a quick reply's payload) only in the bot's own test conversations", async () => {
    tries.draft = valid;
    await service.start(BOT, 'u1', undefined);
    await expect(service.message(BOT, CONV, { text: '   ' })).rejects.toThrow('text is required');
    await expect(service.message(BOT, CONV, { text: 'x'.repeat(4097) })).rejects.toThrow('at most 4096');
    await expect(service.message(BOT, CONV, { text: 'Yes', payload: 7 })).rejects.toThrow('payload must be a string');
    await expect(service.message('another-bot', CONV, { text: 'hi' })).rejects.toBeInstanceOf(NotFoundException);
    await expect(service.message(BOT, 'not-a-uuid', { text: 'hi' })).rejects.toBeInstanceOf(NotFoundException);
    await service.message(BOT, CONV, { text: ' Yes ', payload: 'yes' });
    expect(tries.inputs.at(-1)).toEqual({ conversationId: CONV, text: 'Yes', buttonPayload: 'yes' });
    expect(woken.at(-1)).toEqual([BOT, CONV, 2n]);
  });

  it('shows the transcript, the trace and the state', async () => {
    tries.draft = valid;
    await service.start(BOT, 'u1', undefined);
    const view = await service.view(BOT, CONV);
    expect(view).toMatchObject({
      conversationId: CONV,
      version: -1,
      messages: [{ id: 'm1', direction: 'outbound', content: { text: 'Hi' }, at: '2026-12-15T10:00:00.000Z' }],
      trace: [{ id: '1', node: 'hi', outcome: 'ok', version: -1, variables: { name: 'Ann' } }],
      state: { status: 'ended', variables: {} },
    });
    await expect(service.view(BOT, '7d0c8f8e-3c1b-4a53-9b7e-2f0f6a1d9e02')).rejects.toBeInstanceOf(NotFoundException);
  });
});
