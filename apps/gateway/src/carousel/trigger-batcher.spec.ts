import 'reflect-metadata';
import type { Redis } from 'ioredis';
import type { JobsOptions } from 'bullmq';
import type { CoreEnv } from '@platform/config';
import type { CarouselDispatchJob } from '@platform/contracts';
import { RedisUnavailableError, type CarouselDispatchQueue } from '@platform/queue';
import { CorkedTurn } from './corked-turn.js';
import { TriggerBatcher } from './trigger-batcher.js';

const core = { REDIS_COMMAND_TIMEOUT_MS: 200 } as CoreEnv;

/** `held`: claim ids already held, by the message id holding each (BullMQ then returns that job's id and adds nothing). */
function setup(opts: { addFails?: boolean; addHangs?: boolean; held?: Record<string, string> } = {}) {
  const adds: Array<{ data: CarouselDispatchJob; opts: JobsOptions; corked: boolean }> = [];
  let corked = false;
  const stream = { cork: () => (corked = true), uncork: () => (corked = false) };
  const queue = {
    add: async (_name: string, data: CarouselDispatchJob, jobOpts: JobsOptions) => {
      if (opts.addHangs) return new Promise(() => undefined);
      if (opts.addFails) throw new Error('Connection is closed.');
      const holder = jobOpts.deduplication && opts.held?.[jobOpts.deduplication.id];
      if (holder) return { id: holder };
      adds.push({ data, opts: jobOpts, corked });
      return { id: jobOpts.jobId };
    },
  } as unknown as CarouselDispatchQueue;
  return { batcher: new TriggerBatcher(core, queue, new CorkedTurn({ stream } as unknown as Redis)), adds, isCorked: () => corked };
}

const job = (id: string): { job: CarouselDispatchJob } => ({ job: dispatchJob(id) });
const dispatchJob = (id: string): CarouselDispatchJob => ({
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
    expect(await Promise.all(['m1', 'm2', 'm3'].map((id) => batcher.enqueue(job(id))))).toEqual(['m1', 'm2', 'm3']);
    expect(adds.map((j) => [j.opts.jobId, j.data.messageId, j.corked])).toEqual([
      ['m1', 'm1', true],
      ['m2', 'm2', true],
      ['m3', 'm3', true],
    ]);
    await new Promise((r) => setImmediate(r));
    expect(isCorked()).toBe(false);
  });

  it('adds a batch that leaves before the turn ends (it filled) while the socket is corked too', async () => {
    const { batcher, adds } = setup();
    const ids = Array.from({ length: 20 }, (_, i) => `m${i}`);
    expect(await Promise.all(ids.map((id) => batcher.enqueue(job(id))))).toEqual(ids);
    expect(adds.filter((a) => !a.corked).map((a) => a.data.messageId)).toEqual([]);
  });

  it("adds a keyed job with its claim, and answers the holder's id when the key is held (nothing added)", async () => {
    const { batcher, adds } = setup({ held: { 'trigger:b:taken': 'm-first' } });
    const claim = (key: string) => ({ id: `trigger:b:${key}`, ttl: 86_400_000 });
    const ids = await Promise.all([batcher.enqueue({ job: dispatchJob('m1'), claim: claim('fresh') }), batcher.enqueue({ job: dispatchJob('m2'), claim: claim('taken') })]);
    expect(ids).toEqual(['m1', 'm-first']);
    expect(adds.map((a) => a.opts)).toEqual([{ jobId: 'm1', deduplication: claim('fresh') }]);
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
