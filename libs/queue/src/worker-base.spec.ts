import 'reflect-metadata';
import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError, type Job, type Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { isFinalAttempt } from './final-attempt.js';
import type { QueueJob } from './queue-jobs.js';
import type { StalledJobSource } from './stalled-job-source.js';
import { STALLED_LIMIT_REASON } from './stalled-limit.js';
import { WorkerBase, type WorkerBaseOptions } from './worker-base.js';

type FanoutJob = QueueJob<'push-fanout'>;

/** A BullMQ Worker stand-in: records its settings and runs the processor when a test hands it a job. */
class FakeWorker extends EventEmitter {
  closed = false;
  constructor(
    readonly processor: (job: Job, token?: string) => Promise<unknown>,
    readonly settings: WorkerOptions,
    private readonly order: string[],
  ) {
    super();
  }
  async close() {
    this.order.push('worker closed');
    this.closed = true;
  }
}

/** A worker over the fan-out queue whose processor is `process`; no Redis, no BullMQ worker. */
class TestWorker extends WorkerBase<'push-fanout'> {
  fake?: FakeWorker;
  readonly order: string[] = [];
  readonly processed: string[] = [];
  readonly fakeConnection = { quit: async () => void this.order.push('connection quit'), disconnect: () => undefined };

  constructor(
    private readonly impl: (job: FanoutJob) => Promise<unknown>,
    options: Partial<WorkerBaseOptions<'push-fanout'>> = {},
  ) {
    super({ queue: 'push-fanout', redis: { REDIS_URL: 'redis://unused' }, connectionName: 'test', logName: 'TestWorker', concurrency: 3, ...options });
  }

  protected process(job: FanoutJob): Promise<unknown> {
    switch (job.name) {
      case 'plan':
        this.processed.push(`plan ${job.data.notificationId}`);
        break;
      case 'batch':
        this.processed.push(`batch ${job.data.notificationId}/${job.data.seq}: ${job.data.deviceIds.join(',')}`);
        break;
    }
    return this.impl(job);
  }

  protected override createConnection(): Redis {
    return this.fakeConnection as unknown as Redis;
  }

  protected override stalledJobSource(): StalledJobSource {
    return {
      unsettled: async () => {
        this.order.push('swept');
        return [];
      },
      markSettled: async () => undefined,
      close: async () => undefined,
    };
  }

  protected override createWorker(processor: (job: Job, token?: string) => Promise<unknown>, settings: WorkerOptions): Pick<Worker, 'on' | 'close'> {
    this.fake = new FakeWorker(processor, settings, this.order);
    return this.fake as unknown as Worker;
  }
}

const job = (name: string, attemptsMade: number, attempts = 3, data: object = { notificationId: 'n1' }) =>
  ({ id: `${name}-n1`, name, data, attemptsMade, opts: { attempts }, stalledCounter: 0 }) as unknown as Job;

describe('WorkerBase', () => {
  let logs: Array<[string, string]>;
  beforeEach(() => {
    logs = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((line: unknown) => void logs.push(['error', String(line)]));
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((line: unknown) => void logs.push(['warn', String(line)]));
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('creates the worker with its concurrency and lock settings, and hands each job to process with its payload', async () => {
    const w = new TestWorker(async () => 'done', { lock: { durationMs: 8000, maxStalledCount: 3 } });
    w.onApplicationBootstrap();
    expect(w.fake!.settings).toMatchObject({ concurrency: 3, lockDuration: 8000, stalledInterval: 4000, maxStalledCount: 3, connection: w.fakeConnection });
    expect(await w.fake!.processor(job('plan', 0))).toBe('done');
    await w.fake!.processor(job('batch', 0, 3, { notificationId: 'n1', seq: 2, deviceIds: ['a', 'b'] }));
    expect(w.processed).toEqual(['plan n1', 'batch n1/2: a,b']);
  });

  it('leaves lock settings to BullMQ when none are given', () => {
    const w = new TestWorker(async () => 'done');
    w.onApplicationBootstrap();
    expect(Object.keys(w.fake!.settings).sort()).toEqual(['concurrency', 'connection', 'prefix']);
  });

  it('fails a job whose name its queue does not have without running it', async () => {
    const w = new TestWorker(async () => 'done');
    w.onApplicationBootstrap();
    await expect(w.fake!.processor(job('send', 0))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(w.processed).toEqual([]);
  });

  it('does not run a job again while its earlier run goes on in this process (its lock lapsed): the job waits in the delayed set for a lock time, then runs', async () => {
    let finish!: () => void;
    const w = new TestWorker(() => new Promise<string>((resolve) => (finish = () => resolve('done'))), { lock: { durationMs: 1000, maxStalledCount: 3 } });
    w.onApplicationBootstrap();
    const moves: Array<[number, string | undefined]> = [];
    const taken = () => Object.assign(job('plan', 0), { moveToDelayed: async (at: number, t?: string) => void moves.push([at - Date.now(), t]) }) as unknown as Job;
    const first = w.fake!.processor(taken(), 'token-1');
    // The stalled check gave the job back to the queue and this worker took it again, with a new lock.
    const before = Date.now();
    const second = w.fake!.processor(taken(), 'token-2').catch((err: unknown) => err);
    await new Promise((r) => setImmediate(r));
    expect(w.processed).toEqual(['plan n1']);
    expect(await second).toBeInstanceOf(DelayedError);
    expect(moves).toHaveLength(1);
    expect(moves[0][1]).toBe('token-2');
    expect(moves[0][0]).toBeGreaterThanOrEqual(1000 - (Date.now() - before) - 5);
    expect(moves[0][0]).toBeLessThanOrEqual(1005);
    finish();
    expect(await first).toBe('done');
    // Once the earlier run has ended, the job runs again when it comes back.
    const again = w.fake!.processor(taken(), 'token-3');
    finish();
    expect(await again).toBe('done');
    expect(w.processed).toEqual(['plan n1', 'plan n1']);
  });

  describe('give-up hook', () => {
    const failing = (err: Error, giveUp: (job: FanoutJob, err: unknown) => Promise<void> = async () => undefined) => {
      const gaveUp: Array<[string, unknown]> = [];
      const w = new TestWorker(async () => Promise.reject(err), {
        giveUp: (j, e) => {
          gaveUp.push([j.name, e]);
          return giveUp(j, e);
        },
      });
      w.onApplicationBootstrap();
      return { w, gaveUp };
    };

    it('is not called while attempts remain (BullMQ runs the job again)', async () => {
      const { w, gaveUp } = failing(new Error('db down'));
      await expect(w.fake!.processor(job('plan', 1))).rejects.toThrow('db down');
      expect(gaveUp).toEqual([]);
    });

    it('is called once on the last attempt, or on an UnrecoverableError, and the job still fails with its error', async () => {
      const err = new Error('db down');
      const last = failing(err);
      await expect(last.w.fake!.processor(job('batch', 2, 3, { notificationId: 'n1', seq: 0, deviceIds: ['a'] }))).rejects.toBe(err);
      expect(last.gaveUp).toEqual([['batch', err]]);

      const unrecoverable = new UnrecoverableError('bad config');
      const early = failing(unrecoverable);
      await expect(early.w.fake!.processor(job('plan', 0))).rejects.toBe(unrecoverable);
      expect(early.gaveUp).toEqual([['plan', unrecoverable]]);
    });

    it('is not called when the job only moved (DelayedError), even on its last attempt', async () => {
      const { w, gaveUp } = failing(new DelayedError());
      await expect(w.fake!.processor(job('plan', 2))).rejects.toBeInstanceOf(DelayedError);
      expect(gaveUp).toEqual([]);
    });

    it('logs an error when giving up fails too, and fails the job with the original error', async () => {
      const { w } = failing(new Error('db down'), async () => Promise.reject(new Error('still down')));
      await expect(w.fake!.processor(job('plan', 2))).rejects.toThrow('db down');
      expect(logs).toEqual([['error', 'plan job plan-n1: its final failure could not be recorded (still down)']]);
    });
  });

  it("logs a failed job as 'will retry' while attempts remain and 'failed for good' after the last, and leaves stalled-limit failures to the settler", () => {
    const w = new TestWorker(async () => 'done');
    w.onApplicationBootstrap();
    w.fake!.emit('failed', job('plan', 1), new Error('db down'));
    w.fake!.emit('failed', job('plan', 3), new Error('db down'));
    w.fake!.emit('failed', job('batch', 1), new UnrecoverableError('bad config'));
    w.fake!.emit('failed', job('batch', 2), new UnrecoverableError(STALLED_LIMIT_REASON));
    expect(logs).toEqual([
      ['warn', 'plan job plan-n1 run 1 failed: db down; it will retry'],
      ['error', 'plan job plan-n1 failed for good after 3 runs: db down'],
      ['error', 'batch job batch-n1 failed for good after 1 run: bad config'],
    ]);
  });

  it('settles a job failed for stalling too often through the stalled hook, and shuts down worker, settlements, connection in that order', async () => {
    let finish!: () => void;
    const settled: string[] = [];
    const w = new TestWorker(async () => 'done', {
      settleStalled: async (j) => {
        await new Promise<void>((resolve) => (finish = resolve));
        settled.push(j.name);
        w.order.push('settled');
      },
    });
    w.onApplicationBootstrap();
    w.fake!.emit('failed', job('plan', 0), new UnrecoverableError(STALLED_LIMIT_REASON));
    const shutdown = w.onApplicationShutdown();
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.order).toEqual(['swept', 'worker closed']);
    finish();
    await shutdown;
    expect(settled).toEqual(['plan']);
    expect(w.order).toEqual(['swept', 'worker closed', 'settled', 'connection quit']);
  });
});

describe('isFinalAttempt', () => {
  it('is true on the run after which BullMQ would not retry', () => {
    expect(isFinalAttempt({ attemptsMade: 1, opts: { attempts: 3 } })).toBe(false);
    expect(isFinalAttempt({ attemptsMade: 2, opts: { attempts: 3 } })).toBe(true);
    expect(isFinalAttempt({ attemptsMade: 0, opts: {} })).toBe(true);
  });
});
