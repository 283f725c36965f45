import 'reflect-metadata';
import type { CoreEnv } from '@platform/config';
import type { BotDefinitionRepository, BotInputRepository, HandbackResult, QueuedBotInput } from '@platform/database';
import { RedisUnavailableError, type BotTurnQueue } from '@platform/queue';
import { BotInputsService, botTurnJobId } from './bot-inputs.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const CONV = 'c0f5c2a4-1b7e-4d3a-9f00-0c1d2e3f4a5b';
const MSG = '6c1d2a4e-8f7b-4e57-a0a4-2a2f7a9d4c3e';

function setup(opts: { hosted?: boolean; queue?: 'ok' | 'hangs'; message?: QueuedBotInput | null; handback?: HandbackResult } = {}) {
  const hosted = opts.hosted ?? true;
  const starts: Array<{ payload: string; journeySlug: string | null }> = [];
  const inputs = {
    addMessage: async () => (opts.message !== undefined ? opts.message : hosted ? { seq: 7n, pending: true, mirrored: false } : null),
    addStart: async (_b: string, _c: string, payload: string, journeySlug: string | null) => (hosted ? (starts.push({ payload, journeySlug }), 8n) : null),
    handback: async () => opts.handback ?? { seq: 9n },
  } as unknown as BotInputRepository;
  const definitions = { publishedVersion: async () => (hosted ? 3 : null) } as unknown as BotDefinitionRepository;
  const jobs: Array<{ name: string; data: unknown; opts: unknown }> = [];
  const queue = {
    add: async (name: string, data: unknown, jobOpts: unknown) => {
      if (opts.queue === 'hangs') return new Promise(() => undefined);
      jobs.push({ name, data, opts: jobOpts });
      return {};
    },
  } as unknown as BotTurnQueue;
  const core = { REDIS_COMMAND_TIMEOUT_MS: 50 } as CoreEnv;
  return { service: new BotInputsService(inputs, definitions, queue, core), jobs, starts };
}

describe('BotInputsService', () => {
  it('names jobs after the input, never as a bare integer (BullMQ refuses those)', () => {
    expect(botTurnJobId(42n)).toBe('input-42');
  });

  it("queues a turn for a hosted bot's message, keyed by the input", async () => {
    const { service, jobs } = setup();
    expect(await service.message(BOT, CONV, MSG)).toBe('hosted');
    expect(jobs).toEqual([{ name: 'turn', data: { botId: BOT, conversationId: CONV }, opts: { jobId: 'input-7' } }]);
  });

  it('queues nothing for a bot that is not hosted, or for a repeat the runtime already processed', async () => {
    const outside = setup({ hosted: false });
    expect(await outside.service.message(BOT, CONV, MSG)).toBe('outside');
    expect(outside.jobs).toEqual([]);
    const done = setup({ message: { seq: 7n, pending: false, mirrored: true } });
    expect(await done.service.message(BOT, CONV, MSG)).toBe('mirrored');
    expect(done.jobs).toEqual([]);
  });

  it('queues a repeat that still waits again, under the same job id', async () => {
    const { service, jobs } = setup({ message: { seq: 7n, pending: true, mirrored: false } });
    await service.message(BOT, CONV, MSG);
    await service.message(BOT, CONV, MSG);
    expect(jobs.map((j) => j.opts)).toEqual([{ jobId: 'input-7' }, { jobId: 'input-7' }]);
  });

  it.each([
    [{ JourneySlug: 'order-status', orderId: 'A1' }, 'order-status'],
    [{ JourneySlug: '  ' }, null],
    [{ JourneySlug: 5 }, null],
    [{ journeySlug: 'lower-case-key' }, null],
    [{}, null],
  ])('a session start with payload %j: the payload as a JSON string, journey %s', async (payload, journeySlug) => {
    const { service, starts, jobs } = setup();
    expect(await service.start(BOT, CONV, payload)).toBe(true);
    expect(starts).toEqual([{ payload: JSON.stringify(payload), journeySlug }]);
    expect(jobs).toEqual([expect.objectContaining({ opts: { jobId: 'input-8' } })]);
  });

  it('rejects with RedisUnavailableError when queueing hangs (the caller answers 5xx)', async () => {
    const { service } = setup({ queue: 'hangs' });
    await expect(service.message(BOT, CONV, MSG)).rejects.toBeInstanceOf(RedisUnavailableError);
  });

  it('queues a handback turn, and nothing when the conversation is not handed off', async () => {
    const ok = setup();
    expect(await ok.service.handback(BOT, CONV)).toBe('queued');
    expect(ok.jobs).toEqual([expect.objectContaining({ opts: { jobId: 'input-9' } })]);
    const not = setup({ handback: 'not_in_handoff' });
    expect(await not.service.handback(BOT, CONV)).toBe('not_in_handoff');
    expect(not.jobs).toEqual([]);
  });
});
