import { jest } from '@jest/globals';
import { BatchLease, batchLeaseMs, requestWindowMs } from './batch-lease.js';
import { BatchTakenOverError } from './batch-taken-over.error.js';

/** Lease keys in memory: `holder` holds the lease (or nobody). */
function keys() {
  const state = { holder: undefined as string | undefined, takes: 0, drops: [] as string[] };
  return {
    state,
    renew: async (run: string) => {
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
    expect(requestWindowMs(5000)).toBe(10000);
  });

  it('ensureHeldFor asks Redis only when the last renewal does not prove the lease held that long', async () => {
    const k = keys();
    k.state.holder = 'mine';
    let now = 1000;
    const lease = new BatchLease(
      k,
      'mine',
      40000,
      60000,
      () => undefined,
      1000,
      () => now,
    );
    now = 20000; // 21 s of the lease left
    await lease.ensureHeldFor(10000);
    expect(k.state.takes).toBe(0);
    now = 35000; // 6 s left: renewed, 40 s from now
    await lease.ensureHeldFor(10000);
    expect(k.state.takes).toBe(1);
    now = 60000;
    await lease.ensureHeldFor(10000);
    expect(k.state.takes).toBe(1);
    // Stopped past the lease: another run took the batch meanwhile.
    now = 200000;
    k.state.holder = 'theirs';
    await expect(lease.ensureHeldFor(10000)).rejects.toBeInstanceOf(BatchTakenOverError);
    expect(k.state.takes).toBe(2);
    await expect(lease.ensureHeldFor(0)).rejects.toBeInstanceOf(BatchTakenOverError); // lost for good, without asking again
    expect(k.state.takes).toBe(2);
    await lease.release();
  });

  it('provenFor answers without Redis; confirm starts one renewal at a time and tells through isLost', async () => {
    const k = keys();
    k.state.holder = 'mine';
    let now = 0;
    const lease = new BatchLease(
      k,
      'mine',
      40000,
      60000,
      () => undefined,
      0,
      () => now,
    );
    expect(lease.provenFor(10000)).toBe(true);
    now = 35000;
    expect(lease.provenFor(10000)).toBe(false);
    expect(k.state.takes).toBe(0);
    lease.confirm();
    lease.confirm(); // one renewal under way is enough
    await new Promise((r) => setImmediate(r));
    expect(k.state.takes).toBe(1);
    expect(lease.provenFor(10000)).toBe(true);
    now = 200000; // stopped past the lease, and taken meanwhile
    k.state.holder = 'theirs';
    lease.confirm();
    await new Promise((r) => setImmediate(r));
    expect(lease.isLost()).toBe(true);
    expect(lease.provenFor(0)).toBe(false);
    expect(lease.takenOverError()).toBeInstanceOf(BatchTakenOverError);
    await lease.release();
  });

  it('a renewal proves the lease from when it was sent, not from when Redis answered', async () => {
    let now = 0;
    let answer!: (v: number) => void;
    let renewals = 0;
    const renew = () => (renewals++, new Promise<number>((r) => (answer = r)));
    const lease = new BatchLease(
      { renew, drop: async () => undefined },
      'mine',
      40000,
      60000,
      () => undefined,
      undefined,
      () => now,
    );
    const held = lease.ensureHeldFor(10000); // nothing proven yet: renews
    now = 25000; // Redis answered late
    answer(0);
    await held;
    now = 31000; // 9 s left of the lease renewed at 0: renews again
    const again = lease.ensureHeldFor(10000);
    answer(0);
    await again;
    expect(renewals).toBe(2);
    await lease.release();
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
      const lease = new BatchLease({ renew: (run) => (fail ? Promise.reject(new Error('redis down')) : k.renew(run)), drop: k.drop }, 'mine', 40000, 1000, (err) => errors.push(err));
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
