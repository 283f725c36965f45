import 'reflect-metadata';
import { EventEmitter } from 'node:events';
import { UnrecoverableError } from 'bullmq';
import type { Job, Worker } from 'bullmq';
import type { QueueJob } from './queue-jobs.js';
import { StalledJobSettler } from './stalled-job-settler.js';
import { STALLED_LIMIT_REASON } from './stalled-limit.js';
import { StalledTooOftenError } from './stalled-too-often.error.js';

type DispatchJob = QueueJob<'carousel-dispatch'>;
const job = (stalledCounter: number, name = 'send') => ({ id: 'm1', name, data: {}, stalledCounter }) as unknown as Job;

/** A settler watching a fake worker; records what it settles and logs. */
function setup(settle: (job: DispatchJob, err: StalledTooOftenError) => Promise<void> = async () => undefined) {
  const settled: Array<{ job: DispatchJob; err: StalledTooOftenError }> = [];
  const errors: string[] = [];
  const settler = new StalledJobSettler(
    'carousel-dispatch',
    (j, err) => {
      settled.push({ job: j, err });
      return settle(j, err);
    },
    { warn: () => undefined, error: (line) => void errors.push(line) },
  );
  const worker = new EventEmitter();
  settler.watch(worker as unknown as Worker);
  return { settler, worker, settled, errors };
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
    await settler.close();
    expect(errors).toEqual([
      'send job m1 stalled too often (its worker process stopped mid-run 1 time, more than WORKER_MAX_STALLED_COUNT allows), ' +
        'but its failure could not be recorded (The database is unavailable); the next start-up tries again',
    ]);
  });
});
