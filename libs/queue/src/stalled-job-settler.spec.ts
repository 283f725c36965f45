import 'reflect-metadata';
import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { UnrecoverableError } from 'bullmq';
import type { Job, Worker } from 'bullmq';
import type { QueueJob } from './queue-jobs.js';
import { StalledJobSettler } from './stalled-job-settler.js';
import type { StalledJobSource } from './stalled-job-source.js';
import { STALLED_LIMIT_REASON } from './stalled-limit.js';
import { StalledTooOftenError } from './stalled-too-often.error.js';

type DispatchJob = QueueJob<'carousel-dispatch'>;
const job = (stalledCounter: number, name = 'send', id = 'm1') => ({ id, name, data: {}, stalledCounter }) as unknown as Job;

/** The queue's failed jobs: those failed for stalling and not noted settled, as RedisStalledJobSource reads them. */
class FakeSource implements StalledJobSource {
  readonly failed: Job[] = [];
  readonly marked = new Set<string>();
  reads = 0;
  closed = false;
  async unsettled(): Promise<Job[]> {
    this.reads++;
    return this.failed.filter((j) => !this.marked.has(String(j.id)));
  }
  async markSettled(j: Job): Promise<void> {
    this.marked.add(String(j.id));
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A settler watching a fake worker; records what it settles (each try) and logs. */
function setup(settle: (job: DispatchJob, err: StalledTooOftenError) => Promise<void> = async () => undefined) {
  const tries: Array<{ job: DispatchJob; err: StalledTooOftenError }> = [];
  const errors: string[] = [];
  const logs: string[] = [];
  const settler = new StalledJobSettler(
    'carousel-dispatch',
    (j, err) => {
      tries.push({ job: j, err });
      return settle(j, err);
    },
    { log: (line) => void logs.push(`log ${line}`), warn: (line) => void logs.push(`warn ${line}`), error: (line) => void errors.push(line) },
    { sweepEveryMs: 60_000, retryFirstMs: 1_000, retryMaxMs: 8_000 },
  );
  const worker = new EventEmitter();
  settler.watch(worker as unknown as Worker);
  return { settler, worker, settled: tries, tries, errors, logs };
}

/** A settle function that throws while `down.now` is true, as a repository does while Postgres is down. */
function database() {
  const down = { now: true };
  const recorded: string[] = [];
  const settle = async (j: DispatchJob) => {
    if (down.now) throw new Error('The database is unavailable');
    recorded.push(String(j.id));
  };
  return { down, recorded, settle };
}

describe('StalledJobSettler.watch', () => {
  it('settles a job the worker failed for stalling too often, with the stall count in readable words', async () => {
    const { settler, worker, settled } = setup();
    worker.emit('failed', job(4), new UnrecoverableError(STALLED_LIMIT_REASON), 'active');
    await settler.close();
    expect(settled).toHaveLength(1);
    expect(settled[0].job.id).toBe('m1');
    expect(settled[0].err).toBeInstanceOf(StalledTooOftenError);
    expect(settled[0].err.message).toBe('stalled too often (its worker process stopped mid-run 4 times, more than WORKER_MAX_STALLED_COUNT allows)');
  });

  it('leaves other failures to the usual paths', async () => {
    const { settler, worker, settled } = setup();
    worker.emit('failed', job(0), new Error('131000: Something went wrong'), 'active');
    worker.emit('failed', undefined, new UnrecoverableError(STALLED_LIMIT_REASON), 'active');
    await settler.close();
    expect(settled).toEqual([]);
  });

  it('does not hand the app a job whose name its queue does not have, and says so', async () => {
    const { settler, worker, settled, errors } = setup();
    worker.emit('failed', job(2, 'plan'), new UnrecoverableError(STALLED_LIMIT_REASON), 'active');
    await settler.close();
    expect(settled).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^plan job m1 stalled too often .*; it is no job of carousel-dispatch, so there is nothing to settle$/);
  });

  it('logs one error line when the failure cannot be recorded, and close() still resolves', async () => {
    const { settler, worker, errors } = setup(async () => Promise.reject(new Error('The database is unavailable')));
    worker.emit('failed', job(1), new UnrecoverableError(STALLED_LIMIT_REASON), 'active');
    await new Promise((resolve) => setImmediate(resolve));
    await settler.close();
    expect(errors).toEqual([
      'send job m1 stalled too often (its worker process stopped mid-run 1 time, more than WORKER_MAX_STALLED_COUNT allows), ' +
        'but its failure could not be recorded (The database is unavailable); it is tried again in 1 s, then less often until it is recorded',
    ]);
  });
});

describe('StalledJobSettler retries', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('tries a failed settlement again, the wait doubling up to its cap, until it is recorded; then notes it settled', async () => {
    const db = database();
    const { settler, worker, tries, errors, logs } = setup(db.settle);
    const source = new FakeSource();
    await settler.start(source);
    worker.emit('failed', job(1), new UnrecoverableError(STALLED_LIMIT_REASON), 'active');
    await jest.advanceTimersByTimeAsync(0);
    expect(tries).toHaveLength(1);

    // Retries after 1, 2, 4, 8 and 8 s (the cap): 1 + 5 tries in 23 s.
    await jest.advanceTimersByTimeAsync(22_999);
    expect(tries).toHaveLength(5);
    await jest.advanceTimersByTimeAsync(1);
    expect(tries).toHaveLength(6);
    expect(db.recorded).toEqual([]);
    expect(source.marked.size).toBe(0);

    db.down.now = false;
    await jest.advanceTimersByTimeAsync(8_000);
    expect(tries).toHaveLength(7);
    expect(db.recorded).toEqual(['m1']);
    expect([...source.marked]).toEqual(['m1']);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(tries).toHaveLength(7); // recorded: no more tries

    expect(errors).toHaveLength(1);
    expect(logs).toEqual([
      'warn send job m1 stalled too often (its worker process stopped mid-run 1 time, more than WORKER_MAX_STALLED_COUNT allows), but its failure could not be recorded (The database is unavailable) on try 2; it is tried again in 2 s',
      'warn send job m1 stalled too often (its worker process stopped mid-run 1 time, more than WORKER_MAX_STALLED_COUNT allows), but its failure could not be recorded (The database is unavailable) on try 4; it is tried again in 8 s',
      'log send job m1: the failure of the job (it stalled too often (its worker process stopped mid-run 1 time, more than WORKER_MAX_STALLED_COUNT allows)) is recorded, on try 7',
    ]);
    await settler.close();
  });

  it('drops a waiting retry at close(), saying who records it instead', async () => {
    const db = database();
    const { settler, worker, tries, logs } = setup(db.settle);
    worker.emit('failed', job(1), new UnrecoverableError(STALLED_LIMIT_REASON), 'active');
    await jest.advanceTimersByTimeAsync(0);
    await settler.close();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(tries).toHaveLength(1);
    expect(logs).toEqual(["warn job m1 of carousel-dispatch: its failure is still not recorded; another worker's sweep or the next start-up records it"]);
  });
});

describe('StalledJobSettler sweeps', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('a later sweep records a job failed by stalling while the settlement could not be recorded (the worker that failed it stopped)', async () => {
    const db = database();
    const { settler, tries, logs } = setup(db.settle);
    const source = new FakeSource();
    expect(await settler.start(source)).toBe(0);

    // Another replica failed this job while Postgres was down, and stopped before it recorded it.
    source.failed.push(job(2, 'send', 'm7'));
    db.down.now = false;
    await jest.advanceTimersByTimeAsync(59_999);
    expect(tries).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(db.recorded).toEqual(['m7']);
    expect(tries[0].err.message).toContain('stopped mid-run 2 times');
    expect([...source.marked]).toEqual(['m7']);
    expect(logs).toEqual(['warn 1 job of carousel-dispatch failed by stalling without their failure recorded; recording it']);

    // Noted settled: the next sweeps read the queue again but settle nothing.
    await jest.advanceTimersByTimeAsync(120_000);
    expect(source.reads).toBe(4);
    expect(tries).toHaveLength(1);
    await settler.close();
    expect(source.closed).toBe(true);
  });

  it('stops a sweep at the first settlement that fails, leaves that job to its retry, and takes the rest in the next sweep', async () => {
    const db = database();
    const { settler, tries } = setup(db.settle);
    const source = new FakeSource();
    source.failed.push(job(1, 'send', 'a'), job(1, 'send', 'b'), job(1, 'send', 'c'));
    expect(await settler.start(source)).toBe(3);
    expect(tries.map((t) => t.job.id)).toEqual(['a']);

    db.down.now = false;
    await jest.advanceTimersByTimeAsync(1_000); // a's retry
    expect(db.recorded).toEqual(['a']);
    await jest.advanceTimersByTimeAsync(59_000); // the next sweep
    expect(db.recorded).toEqual(['a', 'b', 'c']);
    expect(tries.map((t) => t.job.id)).toEqual(['a', 'a', 'b', 'c']);
    await settler.close();
  });

  it('a sweep leaves alone a job whose retry waits in this process', async () => {
    const db = database();
    const { settler, worker, tries } = setup(db.settle);
    const source = new FakeSource();
    source.failed.push(job(1));
    await settler.start(source); // try 1 fails; its retry waits 1 s
    expect(await settler.sweep()).toBe(0);
    expect(tries).toHaveLength(1);
    worker.removeAllListeners();
    await settler.close();
  });

  it('logs a sweep that could not read the queue, and sweeps again later', async () => {
    const { settler, logs } = setup();
    const source = new FakeSource();
    let redisDown = true;
    source.unsettled = async () => {
      source.reads++;
      if (redisDown) throw new Error('Connection is closed.');
      return [];
    };
    expect(await settler.start(source)).toBe(0);
    redisDown = false;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(source.reads).toBe(2);
    expect(logs).toEqual(['warn the check of carousel-dispatch for jobs failed by stalling did not finish (Connection is closed.); it runs again in 60 s']);
    await settler.close();
  });
});
