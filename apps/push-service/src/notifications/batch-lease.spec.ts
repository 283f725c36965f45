import { jest } from '@jest/globals';
import { BatchLease, batchLeaseMs } from './batch-lease.js';
import { BatchTakenOverError } from './batch-taken-over.error.js';

/** Lease keys in memory: `holder` holds the lease (or nobody). */
function keys() {
  const state = { holder: undefined as string | undefined, takes: 0, drops: [] as string[] };
  return {
    state,
    take: async (run: string) => {
      state.takes++;
      if (state.holder !== undefined && state.holder !== run) return 5000;
      state.holder = run;
      return 0;
    },
    drop: async (run: string) => {
      state.drops.push(run);
      if (state.holder === run) state.holder = undefined;
    },
  };
}

describe('BatchLease', () => {
  it('lasts the lock, one FCM request and 5 s to record it', () => {
    expect(batchLeaseMs(30000, 5000)).toBe(40000);
    expect(batchLeaseMs(1000, 8000)).toBe(14000);
  });

  it('renews while held; once another run holds the batch it throws BatchTakenOverError and stays lost', async () => {
    const k = keys();
    k.state.holder = 'mine';
    const lease = new BatchLease(k, 'mine', 40000, 60000, () => undefined);
    await expect(lease.ensureHeld()).resolves.toBeUndefined();
    k.state.holder = 'theirs';
    await expect(lease.ensureHeld()).rejects.toBeInstanceOf(BatchTakenOverError);
    k.state.holder = undefined; // their lease ended: this run still must not send again
    await expect(lease.ensureHeld()).rejects.toBeInstanceOf(BatchTakenOverError);
    await lease.release();
    expect(k.state.drops).toEqual([]); // never ends the other run's lease
  });

  it('a lease that ran out with nobody else taking it is renewed (nobody else sent)', async () => {
    const k = keys();
    const lease = new BatchLease(k, 'mine', 40000, 60000, () => undefined);
    await expect(lease.ensureHeld()).resolves.toBeUndefined();
    expect(k.state.holder).toBe('mine');
    await lease.release();
    expect(k.state.drops).toEqual(['mine']);
    expect(k.state.holder).toBeUndefined();
  });

  it('renews on its timer until released; a failed renewal is reported, not thrown', async () => {
    jest.useFakeTimers();
    try {
      const k = keys();
      const errors: Error[] = [];
      let fail = false;
      const lease = new BatchLease({ take: (run) => (fail ? Promise.reject(new Error('redis down')) : k.take(run)), drop: k.drop }, 'mine', 40000, 1000, (err) => errors.push(err));
      await jest.advanceTimersByTimeAsync(3000);
      expect(k.state.takes).toBe(3);
      fail = true;
      await jest.advanceTimersByTimeAsync(1000);
      expect(errors.map((e) => e.message)).toEqual(['redis down']);
      await lease.release();
      await jest.advanceTimersByTimeAsync(5000);
      expect(k.state.takes).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
