import 'reflect-metadata';
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import type { BotInputRepository, BotStepRow, BotTraceRepository, ConversationRepository, InboxRepository } from '@platform/database';
import type { BotInputsService } from './bot-inputs.service.js';
import { BotConversationService } from './bot-conversation.service.js';
import type { ConversationHandoffEvents, HandoffEventInput } from './conversation-handoff-events.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const CONV = 'c0f5c2a4-1b7e-4d3a-9f00-0c1d2e3f4a5b';

function step(id: number): BotStepRow {
  return { id: BigInt(id), startedAt: new Date('2026-12-10T10:00:00Z'), version: 1, journey: 'welcome', node: `n${id}`, kind: 'message', outcome: 'ok', error: null, durationMs: 0.5, sandboxMs: null };
}

function setup(opts: { hosted?: boolean; state?: boolean; handback?: 'queued' | 'not_in_handoff' } = {}) {
  const steps = [1, 2, 3, 4, 5].map(step);
  const handoffs: string[] = [];
  const told: HandoffEventInput[] = [];
  const conversations = {
    find: async (botId: string, id: string) => (botId === BOT && id === CONV ? { id: CONV, channel: 'web', userId: 'u1' } : null),
  } as unknown as ConversationRepository;
  const trace = {
    steps: async (_c: string, after: bigint | null, limit: number) => steps.filter((s) => after === null || s.id > after).slice(0, limit),
    state: async () => (opts.state ? { status: 'waiting', version: 1, journey: 'welcome', node: 'ask', variables: { name: 'Ann' }, updatedAt: new Date('2026-12-10T10:00:00Z') } : null),
  } as unknown as BotTraceRepository;
  const inputs = { handoff: async (_b: string, c: string) => void handoffs.push(c) } as unknown as BotInputRepository;
  const botInputs = { hosted: async () => opts.hosted ?? true, handback: async () => opts.handback ?? 'queued' } as unknown as BotInputsService;
  const events = { publish: async (e: HandoffEventInput) => void told.push(e) } as unknown as ConversationHandoffEvents;
  const assigned: Array<string | null> = [];
  const inbox = { assign: async (_b: string, _c: string, userId: string | null) => void assigned.push(userId) } as unknown as InboxRepository;
  return { handoffs, told, assigned, service: new BotConversationService(conversations, trace, inputs, botInputs, events, inbox) };
}

describe('BotConversationService', () => {
  it('pages the trace by step id; next is null on the last page', async () => {
    const { service } = setup();
    const first = await service.steps(BOT, CONV, undefined, '2');
    expect(first.steps.map((s) => s.id)).toEqual(['1', '2']);
    expect(first.steps[0]).toEqual({
      id: '1',
      at: '2026-12-10T10:00:00.000Z',
      version: 1,
      journey: 'welcome',
      node: 'n1',
      kind: 'message',
      outcome: 'ok',
      error: null,
      durationMs: 0.5,
      sandboxMs: null,
    });
    const last = await service.steps(BOT, CONV, '4', '2');
    expect(last).toMatchObject({ steps: [{ id: '5' }], next: null });
    expect(first.next).toBe('2');
    await expect(service.steps(BOT, CONV, 'x', undefined)).rejects.toThrow(/^cursor /);
    await expect(service.steps(BOT, CONV, undefined, '0')).rejects.toBeInstanceOf(BadRequestException);
  });

  it("404 for another bot's or an unknown conversation, and for a conversation the bot has not run in", async () => {
    const { service } = setup();
    await expect(service.steps('00000000-0000-4000-8000-000000000000', CONV, undefined, undefined)).rejects.toBeInstanceOf(NotFoundException);
    await expect(service.state(BOT, 'not-a-uuid')).rejects.toBeInstanceOf(NotFoundException);
    await expect(service.state(BOT, CONV)).rejects.toThrow('has not run in conversation');
    expect(await setup({ state: true }).service.state(BOT, CONV)).toEqual({
      status: 'waiting',
      version: 1,
      journey: 'welcome',
      node: 'ask',
      variables: { name: 'Ann' },
      updatedAt: '2026-12-10T10:00:00.000Z',
    });
  });

  it('hands a hosted bot’s conversation to an agent; 409 for a bot that is not hosted', async () => {
    const { service, handoffs, told } = setup();
    await service.handoff(BOT, CONV, 'asked for a person');
    expect(handoffs).toEqual([CONV]);
    expect(told).toEqual([{ type: 'conversation.handoff', botId: BOT, conversationId: CONV, channel: 'web', userId: 'u1', by: 'api', member: null, reason: 'asked for a person', journeySlug: null }]);
    await expect(setup({ hosted: false }).service.handoff(BOT, CONV, undefined)).rejects.toBeInstanceOf(ConflictException);
  });

  it('hands back and ends the assignment; 409 when the conversation is not handed off', async () => {
    const ok = setup();
    await ok.service.handback(BOT, CONV);
    expect(ok.told.map((e) => [e.type, e.by])).toEqual([['conversation.handed_back', 'api']]);
    expect(ok.assigned).toEqual([null]);
    const refused = setup({ handback: 'not_in_handoff' });
    await expect(refused.service.handback(BOT, CONV)).rejects.toThrow(/is not handed off/);
    expect([refused.told, refused.assigned]).toEqual([[], []]);
  });
});
