import 'reflect-metadata';
import type { Queue } from 'bullmq';
import type { PlatformEnv } from '@platform/config';
import type { CarouselDispatchJob } from '@platform/contracts';
import { QueueUnavailableError } from '../http/infra-errors.js';
import { TriggerBatcher } from './trigger-batcher.js';

const env = { WHATSAPP_MAX_ATTEMPTS: 5, WHATSAPP_BACKOFF_MS: 2000, REDIS_COMMAND_TIMEOUT_MS: 200 } as PlatformEnv;

function setup(opts: { addFails?: boolean; addHangs?: boolean } = {}) {
  const adds: Array<Array<{ data: CarouselDispatchJob; opts: { jobId: string; attempts: number } }>> = [];
  const queue = {
    addBulk: async (jobs: (typeof adds)[number]) => {
      if (opts.addHangs) return new Promise(() => undefined);
      if (opts.addFails) throw new Error('Connection is closed.');
      adds.push(jobs);
      return [];
    },
  } as unknown as Queue<CarouselDispatchJob>;
  return { batcher: new TriggerBatcher(env, queue), adds };
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
  it('queues the triggers of one event-loop turn with one addBulk, each job keyed by its message id', async () => {
    const { batcher, adds } = setup();
    await Promise.all(['m1', 'm2', 'm3'].map((id) => batcher.enqueue(job(id))));
    expect(adds).toHaveLength(1);
    expect(adds[0].map((j) => [j.opts.jobId, j.data.messageId, j.opts.attempts])).toEqual([
      ['m1', 'm1', 5],
      ['m2', 'm2', 5],
      ['m3', 'm3', 5],
    ]);
  });

  it('answers only after Redis has the job: a Redis failure rejects every caller of the batch', async () => {
    const { batcher } = setup({ addFails: true });
    const results = await Promise.allSettled(['m1', 'm2'].map((id) => batcher.enqueue(job(id))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(QueueUnavailableError);
  });

  it('gives up on a Redis that does not answer within REDIS_COMMAND_TIMEOUT_MS', async () => {
    const { batcher } = setup({ addHangs: true });
    await expect(batcher.enqueue(job('m1'))).rejects.toBeInstanceOf(QueueUnavailableError);
  });
});
