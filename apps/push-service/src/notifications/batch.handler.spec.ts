import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import type { JobLockEnv, PushEnv } from '@platform/config';
import type { PushBatchJob } from '@platform/contracts';
import type { BatchCounts, DeviceRepository, NotificationRepository } from '@platform/database';
import type { PushConfigService } from '../service-accounts/push-config.service.js';
import type { FcmSender } from '../fcm/fcm-sender.js';
import type { FcmPacer } from '../fcm/fcm-pacer.js';
import type { SendGuard } from '../fcm/send-guard.js';
import type { BatchProgressStore, DeviceOutcome } from './batch-progress.store.js';
import { BatchHandler } from './batch.handler.js';
import { BatchLease } from './batch-lease.js';
import { BatchTakenOverError } from './batch-taken-over.error.js';

const job = { data: { notificationId: 'n1', seq: 4, deviceIds: ['a', 'b', 'c', 'd'] }, attemptsMade: 2, opts: { attempts: 3 } } as unknown as Job<PushBatchJob>;

interface Setup {
  found?: boolean;
  /** What the batch's lease answers: held by this run (a lease), or by another for this many ms; or each time, from a function. */
  lease?: BatchLease | { heldForMs: number } | (() => Promise<BatchLease | { heldForMs: number }>);
  counted?: boolean;
}

function setup(read: () => Promise<Map<string, DeviceOutcome>>, { found = true, lease = heldLease(), counted = false }: Setup = {}) {
  const completed: Array<[string, number, BatchCounts]> = [];
  const dead: Array<[string, string[], string]> = [];
  const cleared: Array<[string, number]> = [];
  const leases: Array<[number, number]> = [];
  const handler = new BatchHandler(
    {
      findById: async () => (found ? { id: 'n1', botId: 'bot1', status: 'sending' } : null),
      completeBatch: async (id: string, seq: number, c: BatchCounts) => completed.push([id, seq, c]) > 0,
      isBatchCounted: async () => counted,
    } as unknown as NotificationRepository,
    { markDead: async (botId: string, ids: string[], reason: string) => void dead.push([botId, ids, reason]) } as unknown as DeviceRepository,
    {} as PushConfigService,
    {} as FcmSender,
    {
      read,
      clear: async (id: string, seq: number) => void cleared.push([id, seq]),
      lease: async (_id: string, _seq: number, ms: number, every: number) => (leases.push([ms, every]), typeof lease === 'function' ? lease() : lease),
    } as unknown as BatchProgressStore,
    {} as FcmPacer,
    { WORKER_LOCK_MS: 30000 } as JobLockEnv,
    { FCM_TIMEOUT_MS: 5000 } as PushEnv,
  );
  return { handler, completed, dead, cleared, leases };
}

/** A lease held by the run, on keys that always answer "yours". */
function heldLease(dropped: string[] = []): BatchLease {
  return new BatchLease({ renew: async () => 0, drop: async (run) => void dropped.push(run) }, 'run-1', 40000, 60000, () => undefined);
}

describe('BatchHandler.handle and the batch lease', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('leases the batch for the lock, the FCM timeout and 5 s, renewed every half lock', async () => {
    const { handler, leases } = setup(async () => new Map(), { lease: heldLease(), counted: true });
    await handler.handle(job, 'token');
    expect(leases).toEqual([[40000, 15000]]);
  });

  it('waits in the delayed set while another run holds the batch: nothing read, sent or counted', async () => {
    const read = jest.fn(async () => new Map<string, DeviceOutcome>());
    const { handler, completed } = setup(read, { lease: { heldForMs: 12000 } });
    const delayed: Array<[number, string]> = [];
    const waiting = { ...job, moveToDelayed: async (at: number, token: string) => void delayed.push([at, token]) } as unknown as Job<PushBatchJob>;
    const before = Date.now();
    await expect(handler.handle(waiting, 'token')).rejects.toBeInstanceOf(DelayedError);
    expect(delayed).toHaveLength(1);
    expect(delayed[0][0] - before).toBeGreaterThanOrEqual(12000);
    expect(delayed[0][0] - Date.now()).toBeLessThanOrEqual(12000);
    expect(delayed[0][1]).toBe('token');
    expect(read).not.toHaveBeenCalled();
    expect(completed).toEqual([]);
  });

  it('a batch already counted (by a run whose job was not marked done) is not sent again; its outcomes are cleared and the lease ended', async () => {
    const read = jest.fn(async () => new Map<string, DeviceOutcome>());
    const dropped: string[] = [];
    const { handler, completed, cleared } = setup(read, { lease: heldLease(dropped), counted: true });
    await expect(handler.handle(job, 'token')).resolves.toBe('already counted');
    expect(read).not.toHaveBeenCalled();
    expect(completed).toEqual([]);
    expect(cleared).toEqual([['n1', 4]]);
    expect(dropped).toEqual(['run-1']);
  });
});

describe('BatchHandler.giveUp (the last attempt of a batch threw)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('counts the devices without an outcome as failed, keeps the recorded outcomes, through completeBatch', async () => {
    const { handler, completed, dead, cleared } = setup(
      async () =>
        new Map<string, DeviceOutcome>([
          ['a', 'sent'],
          ['b', 'invalid:UNREGISTERED'],
        ]),
    );
    await handler.giveUp(job, new Error('db down'));
    expect(completed).toEqual([['n1', 4, { sent: 1, failed: 2, invalidTokens: 1, skipped: 0 }]]);
    expect(dead).toEqual([['bot1', ['b'], 'UNREGISTERED']]);
    expect(cleared).toEqual([['n1', 4]]);
  });

  it('counts every device failed when the recorded outcomes cannot be read', async () => {
    const { handler, completed } = setup(async () => Promise.reject(new Error('WRONGTYPE')));
    await handler.giveUp(job, new Error('redis'));
    expect(completed).toEqual([['n1', 4, { sent: 0, failed: 4, invalidTokens: 0, skipped: 0 }]]);
  });

  it('leaves a batch taken over by another run to that run: nothing counted', async () => {
    const { handler, completed, cleared } = setup(async () => new Map());
    await handler.giveUp(job, new BatchTakenOverError('another run took the batch over'));
    expect(completed).toEqual([]);
    expect(cleared).toEqual([]);
  });

  it('waits while another run holds the batch (a process stopped mid-send), then counts under its own lease', async () => {
    const answers: Array<BatchLease | { heldForMs: number }> = [{ heldForMs: 20 }, { heldForMs: 5000 }];
    const dropped: string[] = [];
    const lease = jest.fn(async () => answers.shift() ?? heldLease(dropped));
    const { handler, completed, leases } = setup(async () => new Map<string, DeviceOutcome>([['a', 'sent']]), { lease });
    const started = Date.now();
    await handler.giveUp(job, new Error('db down'));
    expect(lease).toHaveBeenCalledTimes(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // 20 ms, then at most a second between looks
    expect(leases[0]).toEqual([40000, 15000]);
    expect(completed).toEqual([['n1', 4, { sent: 1, failed: 3, invalidTokens: 0, skipped: 0 }]]);
    expect(dropped).toEqual(['run-1']);
  });

  it('adds nothing when the run it waited for counted the batch', async () => {
    const answers: Array<BatchLease | { heldForMs: number }> = [{ heldForMs: 20 }];
    const dropped: string[] = [];
    const read = jest.fn(async () => new Map<string, DeviceOutcome>());
    const { handler, completed, cleared } = setup(read, { lease: async () => answers.shift() ?? heldLease(dropped), counted: true });
    await handler.giveUp(job, new Error('stalled'));
    expect(completed).toEqual([]);
    expect(read).not.toHaveBeenCalled();
    expect(cleared).toEqual([['n1', 4]]);
    expect(dropped).toEqual(['run-1']);
  });

  it('counts without the lease when Redis cannot say who holds it', async () => {
    const { handler, completed } = setup(async () => new Map(), { lease: () => Promise.reject(new Error('redis down')) });
    await handler.giveUp(job, new Error('db down'));
    expect(completed).toEqual([['n1', 4, { sent: 0, failed: 4, invalidTokens: 0, skipped: 0 }]]);
  });

  it('does nothing for a notification that no longer exists', async () => {
    const { handler, completed } = setup(async () => new Map(), { found: false });
    await handler.giveUp(job, new Error('x'));
    expect(completed).toEqual([]);
  });
});

describe('BatchHandler.handle: a retry in a run taken over', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('checks the lease before a device is sent again: taken over, the device is neither sent nor given an outcome', async () => {
    const recorded = new Map<string, DeviceOutcome>();
    const completed: unknown[] = [];
    let renewals = 0;
    // Held for the chunk, taken by another run before the retry; 5 s is less than a retry needs, so it asks Redis.
    const lease = new BatchLease({ renew: async () => (renewals++ === 0 ? 0 : 1), drop: async () => undefined }, 'run-1', 5000, 60000, () => undefined);
    const resent: string[] = [];
    const handler = new BatchHandler(
      {
        findById: async () => ({ id: 'n1', botId: 'bot1', status: 'sending', title: 't', body: 'b', journeySlug: null, data: {}, priority: 'high', ttlSeconds: null, createdAt: new Date() }),
        isBatchCounted: async () => false,
        completeBatch: async (...args: unknown[]) => completed.push(args) > 0,
      } as unknown as NotificationRepository,
      {
        findLive: async () => [
          { id: 'a', token: 'ta' },
          { id: 'b', token: 'tb' },
        ],
      } as unknown as DeviceRepository,
      { load: async () => ({ botId: 'bot1', projectId: 'p1', quotaPerMinute: 600000, clientEmail: 'x@p1' }) } as unknown as PushConfigService,
      {
        // 'ta' is accepted at once; 'tb' was answered 503 and is retried.
        deliverMany: async (_c: unknown, _p: unknown, tokens: string[], _s: unknown, onResult: (i: number, r: unknown) => void, guard: SendGuard) => {
          onResult(tokens.indexOf('ta'), { kind: 'sent' });
          await guard.beforeResend().then(
            () => (resent.push('tb'), onResult(tokens.indexOf('tb'), { kind: 'sent' })),
            (err: Error) => onResult(tokens.indexOf('tb'), err),
          );
        },
      } as unknown as FcmSender,
      {
        read: async () => new Map(),
        recorder: () => ({ outcomes: recorded, record: (id: string, o: DeviceOutcome) => void recorded.set(id, o), flush: async () => undefined }),
        lease: async () => lease,
        clear: async () => undefined,
      } as unknown as BatchProgressStore,
      { take: async (_p: string, _q: number, want: number) => ({ granted: want, waitMs: 0, chunk: 'c1' }), landed: () => undefined } as unknown as FcmPacer,
      { WORKER_LOCK_MS: 30000 } as JobLockEnv,
      { FCM_TIMEOUT_MS: 5000 } as PushEnv,
    );
    const lastRun = { data: { notificationId: 'n1', seq: 0, deviceIds: ['a', 'b'] }, attemptsMade: 2, opts: { attempts: 3 } } as unknown as Job<PushBatchJob>;
    await expect(handler.handle(lastRun, 'token')).rejects.toBeInstanceOf(BatchTakenOverError);
    expect(resent).toEqual([]);
    expect([...recorded]).toEqual([['a', 'sent']]); // 'b' is left to the run that took the batch over, even on the last attempt
    expect(completed).toEqual([]);
  });
});

describe('BatchHandler.handle: the pace of a chunk with a retry', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("reports the chunk landed once FCM answered each of its messages once, not after the retries' backoff; once", async () => {
    const recorded = new Map<string, DeviceOutcome>();
    const landed: Array<[string, string | undefined]> = [];
    let releaseRetry!: () => void;
    const retryWaits = new Promise<void>((resolve) => (releaseRetry = resolve));
    let landedBeforeRetry: Array<[string, string | undefined]> | undefined;
    const handler = new BatchHandler(
      {
        findById: async () => ({ id: 'n1', botId: 'bot1', status: 'sending', title: 't', body: 'b', journeySlug: null, data: {}, priority: 'high', ttlSeconds: null, createdAt: new Date() }),
        isBatchCounted: async () => false,
        completeBatch: async () => true,
      } as unknown as NotificationRepository,
      {
        findLive: async () => [
          { id: 'a', token: 'ta' },
          { id: 'b', token: 'tb' },
        ],
        markDead: async () => undefined,
      } as unknown as DeviceRepository,
      { load: async () => ({ botId: 'bot1', projectId: 'p1', quotaPerMinute: 600000, clientEmail: 'x@p1' }) } as unknown as PushConfigService,
      {
        // Both first requests answered ('tb' with a 429); 'tb' is sent again after its Retry-After.
        deliverMany: async (_c: unknown, _p: unknown, tokens: string[], _s: unknown, onResult: (i: number, r: unknown) => void, _g: unknown, firstAnswered?: () => void) => {
          onResult(tokens.indexOf('ta'), { kind: 'sent' });
          firstAnswered?.();
          await new Promise((r) => setImmediate(r));
          landedBeforeRetry = [...landed];
          await retryWaits;
          onResult(tokens.indexOf('tb'), { kind: 'sent' });
        },
      } as unknown as FcmSender,
      {
        read: async () => new Map(),
        recorder: () => ({ outcomes: recorded, record: (id: string, o: DeviceOutcome) => void recorded.set(id, o), flush: async () => undefined }),
        lease: async () => heldLease(),
        clear: async () => undefined,
      } as unknown as BatchProgressStore,
      {
        take: async (_p: string, _q: number, want: number) => ({ granted: want, waitMs: 0, chunk: 'c1' }),
        landed: (projectId: string, chunk?: string) => void landed.push([projectId, chunk]),
      } as unknown as FcmPacer,
      { WORKER_LOCK_MS: 30000 } as JobLockEnv,
      { FCM_TIMEOUT_MS: 5000 } as PushEnv,
    );
    const run = { data: { notificationId: 'n1', seq: 0, deviceIds: ['a', 'b'] }, attemptsMade: 0, opts: { attempts: 3 } } as unknown as Job<PushBatchJob>;
    const handled = handler.handle(run, 'token');
    while (landedBeforeRetry === undefined) await new Promise((r) => setImmediate(r));
    // The retry is paced as a message of its own: the chunk must not count against the next seconds meanwhile.
    expect(landedBeforeRetry).toEqual([['p1', 'c1']]);
    releaseRetry();
    await expect(handled).resolves.toMatch(/^counted/);
    expect(landed).toEqual([['p1', 'c1']]);
    expect([...recorded]).toEqual([
      ['a', 'sent'],
      ['b', 'sent'],
    ]);
  });
});
