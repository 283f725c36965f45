import 'reflect-metadata';
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
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
  async start(botId: string, _by: string, payload: string, check: (d: Prisma.JsonValue) => void) {
    if (!this.draft) return null;
    check(this.draft);
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
  steps: async () => [{ id: 1n, startedAt: new Date('2026-12-15T10:00:00Z'), version: -1, journey: 'main', node: 'hi', kind: 'end', outcome: 'ok', error: null, durationMs: 1, sandboxMs: null }],
  state: async () => ({ status: 'ended', version: null, journey: null, node: null, variables: {}, updatedAt: new Date('2026-12-15T10:00:01Z') }),
};

describe('BotTryService', () => {
  let tries: FakeTries;
  let woken: Array<[string, string, bigint]>;
  let service: BotTryService;
  beforeEach(() => {
    tries = new FakeTries();
    woken = [];
    const inputs = { wake: async (botId: string, id: string, seq: bigint) => void woken.push([botId, id, seq]) } as unknown as BotInputsService;
    service = new BotTryService(tries as unknown as BotTryRepository, trace as unknown as BotTraceRepository, new BotDefinitionService({} as never), inputs);
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
    expect(await service.start(BOT, 'u1', { JourneySlug: 'main' })).toEqual({ conversationId: CONV, version: -1 });
    expect(tries.inputs).toEqual([{ conversationId: CONV, payload: '{"JourneySlug":"main"}' }]);
    expect(woken).toEqual([[BOT, CONV, 1n]]);
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
      trace: [{ id: '1', node: 'hi', outcome: 'ok', version: -1 }],
      state: { status: 'ended', variables: {} },
    });
    await expect(service.view(BOT, '7d0c8f8e-3c1b-4a53-9b7e-2f0f6a1d9e02')).rejects.toBeInstanceOf(NotFoundException);
  });
});
