import 'reflect-metadata';
import type { Queue } from 'bullmq';
import type { PlatformEnv } from '@platform/config';
import type { CarouselDispatchJob } from '@platform/contracts';
import type { MessageRepository, QueuedMessageRow } from '@platform/database';
import { QueueUnavailableError } from '../http/infra-errors.js';
import { TriggerBatcher } from './trigger-batcher.js';

const env = { WHATSAPP_MAX_ATTEMPTS: 5, WHATSAPP_BACKOFF_MS: 2000, REDIS_COMMAND_TIMEOUT_MS: 200 } as PlatformEnv;

function setup(opts: { insertFails?: boolean; addFails?: boolean; addHangs?: boolean } = {}) {
  const inserts: string[][] = [];
  const deletes: string[][] = [];
  const adds: Array<Array<{ data: CarouselDispatchJob; opts: { jobId: string; attempts: number } }>> = [];
  const messages = {
    insertQueued: async (rows: QueuedMessageRow[]) => {
      if (opts.insertFails) throw new Error('PrismaClientKnownRequestError: database down');
      inserts.push(rows.map((r) => r.id));
    },
    deleteMany: async (ids: string[]) => void deletes.push(ids),
  } as unknown as MessageRepository;
  const queue = {
    addBulk: async (jobs: (typeof adds)[number]) => {
      if (opts.addHangs) return new Promise(() => undefined);
      if (opts.addFails) throw new Error('Connection is closed.');
      adds.push(jobs);
      return [];
    },
  } as unknown as Queue<CarouselDispatchJob>;
  return { batcher: new TriggerBatcher(messages, env, queue), inserts, deletes, adds };
}

const message = (id: string): QueuedMessageRow => ({ id, botId: 'b', templateId: 't', senderId: 's', channel: 'whatsapp', recipient: '15550001111' });
const job = (id: string): CarouselDispatchJob => ({ messageId: id, cards: [{ mediaLink: 'https://x.test/a.png' }] });

describe('TriggerBatcher', () => {
  it('writes the triggers of one event-loop turn with one INSERT and one addBulk, each job keyed by its message id', async () => {
    const { batcher, inserts, adds } = setup();
    await Promise.all(['m1', 'm2', 'm3'].map((id) => batcher.enqueue(message(id), job(id))));
    expect(inserts).toEqual([['m1', 'm2', 'm3']]);
    expect(adds).toHaveLength(1);
    expect(adds[0].map((j) => [j.opts.jobId, j.data.messageId, j.opts.attempts])).toEqual([
      ['m1', 'm1', 5],
      ['m2', 'm2', 5],
      ['m3', 'm3', 5],
    ]);
  });

  it('answers only after Redis has the job: a Redis failure rejects every caller and removes their rows', async () => {
    const { batcher, deletes } = setup({ addFails: true });
    const results = await Promise.allSettled(['m1', 'm2'].map((id) => batcher.enqueue(message(id), job(id))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(QueueUnavailableError);
    expect(deletes).toEqual([['m1', 'm2']]);
  });

  it('gives up on a Redis that does not answer within REDIS_COMMAND_TIMEOUT_MS', async () => {
    const { batcher, deletes } = setup({ addHangs: true });
    await expect(batcher.enqueue(message('m1'), job('m1'))).rejects.toBeInstanceOf(QueueUnavailableError);
    expect(deletes).toEqual([['m1']]);
  });

  it('queues nothing when the rows could not be written', async () => {
    const { batcher, adds } = setup({ insertFails: true });
    await expect(batcher.enqueue(message('m1'), job('m1'))).rejects.toThrow(/database down/);
    expect(adds).toHaveLength(0);
  });
});
