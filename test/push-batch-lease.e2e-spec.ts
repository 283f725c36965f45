import { setTimeout as sleep } from 'node:timers/promises';
import type { CoreEnv } from '@platform/config';
import { createTestRedisEnv } from '@platform/testing';
import { BatchProgressStore } from '../apps/push-service/src/notifications/batch-progress.store.js';
import { BatchLease } from '../apps/push-service/src/notifications/batch-lease.js';
import { BatchTakenOverError } from '../apps/push-service/src/notifications/batch-taken-over.error.js';

/**
 * The batch lease's Redis scripts, two stores standing for two push-service replicas: a run whose
 * lease ran out may renew it only if no other run took the batch since, even one that has finished
 * and dropped it again.
 */
describe('BatchProgressStore.lease against Redis', () => {
  let a: BatchProgressStore;
  let b: BatchProgressStore;
  const leases: BatchLease[] = [];

  beforeAll(async () => {
    const env = (await createTestRedisEnv()) as unknown as CoreEnv;
    a = new BatchProgressStore(env);
    b = new BatchProgressStore(env);
  });
  afterAll(async () => {
    await Promise.all(leases.map((l) => l.release().catch(() => undefined)));
    await a.onApplicationShutdown();
    await b.onApplicationShutdown();
  });

  const take = async (store: BatchProgressStore, seq: number, leaseMs: number): Promise<BatchLease | { heldForMs: number }> => {
    const lease = await store.lease('n-lease', seq, leaseMs, 60_000);
    if (lease instanceof BatchLease) leases.push(lease);
    return lease;
  };

  it('held by one run: another is told how long; dropped: the other takes it at once', async () => {
    const first = await take(a, 1, 10_000);
    expect(first).toBeInstanceOf(BatchLease);
    const waiting = await take(b, 1, 10_000);
    expect(waiting).not.toBeInstanceOf(BatchLease);
    expect((waiting as { heldForMs: number }).heldForMs).toBeGreaterThan(8_000);
    expect((waiting as { heldForMs: number }).heldForMs).toBeLessThanOrEqual(10_000);
    await (first as BatchLease).release();
    expect(await take(b, 1, 10_000)).toBeInstanceOf(BatchLease);
  });

  it('a lease that ran out is renewed by its run when nobody took the batch meanwhile', async () => {
    const lease = (await take(a, 2, 200)) as BatchLease;
    await sleep(400);
    await expect(lease.ensureHeld()).resolves.toBeUndefined();
    expect(await take(b, 2, 200)).not.toBeInstanceOf(BatchLease);
  });

  it('a lease that ran out and was taken by another run stays lost, even after that run dropped it', async () => {
    const stopped = (await take(a, 3, 200)) as BatchLease;
    await sleep(400); // its process stopped past the lease
    const other = await take(b, 3, 10_000);
    expect(other).toBeInstanceOf(BatchLease);
    await (other as BatchLease).release(); // the other run finished the batch
    await expect(stopped.ensureHeld()).rejects.toBeInstanceOf(BatchTakenOverError);
    await expect(stopped.ensureHeldFor(0)).rejects.toBeInstanceOf(BatchTakenOverError);
    expect(await take(b, 3, 10_000)).toBeInstanceOf(BatchLease); // a new run may take it
  });
});
