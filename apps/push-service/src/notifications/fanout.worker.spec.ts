import 'reflect-metadata';
import type { Job } from 'bullmq';
import { FanoutJobHandler, runFanoutJob } from './fanout.worker.js';

const job = (attemptsMade: number, attempts = 3) => ({ id: 'plan-n1', name: 'plan', data: {}, attemptsMade, opts: { attempts } }) as unknown as Job<object>;

/** A handler that records the giveUp calls it gets. */
function handler(handle: () => Promise<string>, giveUp: () => Promise<void> = async () => undefined) {
  const gaveUp: Array<{ job: Job<object>; err: unknown }> = [];
  const h: FanoutJobHandler<object> = {
    handle,
    giveUp: (j, err) => {
      gaveUp.push({ job: j, err });
      return giveUp();
    },
  };
  return Object.assign(h, { gaveUp });
}

describe('runFanoutJob', () => {
  const errors: string[] = [];
  const logger = { error: (line: string) => void errors.push(line) };
  beforeEach(() => errors.splice(0));

  it('returns what the handler returns', async () => {
    const h = handler(async () => '2 batches');
    expect(await runFanoutJob(job(0), h, logger)).toBe('2 batches');
    expect(h.gaveUp).toEqual([]);
  });

  it('rethrows without giving up while attempts remain (BullMQ runs the job again)', async () => {
    const h = handler(async () => Promise.reject(new Error('db down')));
    await expect(runFanoutJob(job(1), h, logger)).rejects.toThrow('db down');
    expect(h.gaveUp).toEqual([]);
  });

  it('on the last attempt gives up once with the error, then still fails the job', async () => {
    const err = new Error('db down');
    const h = handler(async () => Promise.reject(err));
    await expect(runFanoutJob(job(2), h, logger)).rejects.toBe(err);
    expect(h.gaveUp).toEqual([{ job: expect.objectContaining({ id: 'plan-n1' }), err }]);
    expect(errors).toEqual([]);
  });

  it('a job with a single attempt gives up on its first failure', async () => {
    const h = handler(async () => Promise.reject(new Error('x')));
    await expect(runFanoutJob(job(0, 1), h, logger)).rejects.toThrow('x');
    expect(h.gaveUp).toHaveLength(1);
  });

  it('logs an error when giving up fails too, and fails the job with the original error', async () => {
    const h = handler(
      async () => Promise.reject(new Error('db down')),
      async () => Promise.reject(new Error('still down')),
    );
    await expect(runFanoutJob(job(2), h, logger)).rejects.toThrow('db down');
    expect(errors).toEqual([expect.stringContaining('plan job plan-n1: its final failure could not be recorded (still down)')]);
  });
});
