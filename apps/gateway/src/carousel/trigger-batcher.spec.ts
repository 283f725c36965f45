import 'reflect-metadata';
import type { Redis } from 'ioredis';
import type { CoreEnv } from '@platform/config';
import type { CarouselDispatchJob } from '@platform/contracts';
import { RedisUnavailableError, type CarouselDispatchQueue } from '@platform/queue';
import { CorkedTurn } from './corked-turn.js';
import { TriggerBatcher } from './trigger-batcher.js';

const core = { REDIS_COMMAND_TIMEOUT_MS: 200 } as CoreEnv;

function setup(opts: { addFails?: boolean; addHangs?: boolean } = {}) {
  const adds: Array<{ data: CarouselDispatchJob; opts: { jobId: string }; corked: boolean }> = [];
  let corked = false;
  const stream = { cork: () => (corked = true), uncork: () => (corked = false) };
  const queue = {
    add: async (_name: string, data: CarouselDispatchJob, jobOpts: { jobId: string }) => {
      if (opts.addHangs) return new Promise(() => undefined);
      if (opts.addFails) throw new Error('Connection is closed.');
      adds.push({ data, opts: jobOpts, corked });
      return {};
    },
  } as unknown as CarouselDispatchQueue;
  return { batcher: new TriggerBatcher(core, queue, new CorkedTurn({ stream } as unknown as Redis)), adds, isCorked: () => corked };
}

const job = (id: string): CarouselDispatchJob => ({
  messageId: id,
  botId: 'b',
  templateId: 't',
  senderId: 's',
  channel: 'whatsapp',
  recipient: '15550001111',
  cards: [{ mediaLink: 'https://x.test/a.png' }],
});

describe('TriggerBatcher', () => {
  it('queues the triggers of one event-loop turn while the socket is corked, each job keyed by its message id', async () => {
    const { batcher, adds, isCorked } = setup();
    await Promise.all(['m1', 'm2', 'm3'].map((id) => batcher.enqueue(job(id))));
    expect(adds.map((j) => [j.opts.jobId, j.data.messageId, j.corked])).toEqual([
      ['m1', 'm1', true],
      ['m2', 'm2', true],
      ['m3', 'm3', true],
    ]);
    await new Promise((r) => setImmediate(r));
    expect(isCorked()).toBe(false);
  });

  it('answers only after Redis has the job: a Redis failure rejects every caller of the batch', async () => {
    const { batcher } = setup({ addFails: true });
    const results = await Promise.allSettled(['m1', 'm2'].map((id) => batcher.enqueue(job(id))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(RedisUnavailableError);
  });

  it('gives up on a Redis that does not answer within REDIS_COMMAND_TIMEOUT_MS', async () => {
    const { batcher } = setup({ addHangs: true });
    await expect(batcher.enqueue(job('m1'))).rejects.toBeInstanceOf(RedisUnavailableError);
  });
});
