import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { RedisClient, RedisTarget, createRequestRedis, pushBatchProgressKey } from '@platform/queue';
import { BatchLease } from './batch-lease.js';

/** Final outcome of one device in a batch: sent, failed, skipped, or invalid:<reason>. */
export type DeviceOutcome = 'sent' | 'failed' | 'skipped' | `invalid:${string}`;

const KEEP_SECONDS = 7 * 24 * 3600;

/**
 * KEYS[1] the batch's lease (a hash: the run that took it last, and until when on Redis' clock), ARGV
 * run id, lease ms, '1' for a renewal, seconds to keep the record: 0 once the run holds it, else the ms
 * another run still holds it (at least 1). A run may renew a lease that ran out only if no other run
 * took it since (it is still named as the last holder): one that was taken, even if that run has
 * dropped it since, stays lost, so a process that wakes after its batch was finished sends nothing.
 */
const TAKE_LEASE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = redis.call('HMGET', KEYS[1], 'holder', 'until')
local holder, untilMs = lease[1], tonumber(lease[2]) or 0
if holder and holder ~= ARGV[1] then
  if untilMs > now then return untilMs - now end
  if ARGV[3] == '1' then return 1 end
end
redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'until', now + tonumber(ARGV[2]))
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 0
`;
/** KEYS[1] the batch's lease, ARGV run id: ends it if that run holds it (it stays named as the last holder). */
const DROP_LEASE = `
if redis.call('HGET', KEYS[1], 'holder') == ARGV[1] then return redis.call('HSET', KEYS[1], 'until', 0) end
return 0
`;

type LeaseRedis = RedisClient & {
  pushLeaseTake(key: string, runId: string, leaseMs: number, renewal: 0 | 1, keepSeconds: number): Promise<number>;
  pushLeaseDrop(key: string, runId: string): Promise<number>;
};

/**
 * Per-batch record of devices that already have a final outcome, in a Redis hash. A retried batch
 * skips them (no second message, no second count). Outcomes are written in small groups right after
 * FCM answers; a crash between an answer and its write (a few ms) can resend those few messages.
 */
@Injectable()
export class BatchProgressStore implements OnApplicationShutdown {
  private readonly logger = new Logger('PushBatch');
  private readonly redis: LeaseRedis;

  constructor(private readonly env: CoreEnv) {
    const redis = createRequestRedis(env, 'push-progress', { enableAutoPipelining: true, enableOfflineQueue: true, maxRetriesPerRequest: 3 });
    redis.on('error', () => undefined);
    redis.defineCommand('pushLeaseTake', { numberOfKeys: 1, lua: TAKE_LEASE });
    redis.defineCommand('pushLeaseDrop', { numberOfKeys: 1, lua: DROP_LEASE });
    this.redis = redis as LeaseRedis;
  }

  /**
   * Holds the batch for a run of its job (BatchLease), or says how long another run still holds it. A
   * run that lost its job's lock while its process was stopped keeps its lease until the lease runs out,
   * and renews it after that only if no other run (nor giving up) took the batch meanwhile.
   */
  async lease(notificationId: string, seq: number, leaseMs: number, renewEveryMs: number): Promise<BatchLease | { heldForMs: number }> {
    const leaseKey = `${key(this.env, notificationId, seq)}:lease`;
    const runId = randomUUID();
    const keys = {
      renew: async (run: string, ms: number) => Number(await this.redis.pushLeaseTake(leaseKey, run, ms, 1, KEEP_SECONDS)),
      drop: async (run: string) => void (await this.redis.pushLeaseDrop(leaseKey, run)),
    };
    const takenAt = performance.now();
    const heldForMs = Number(await this.redis.pushLeaseTake(leaseKey, runId, leaseMs, 0, KEEP_SECONDS));
    if (heldForMs > 0) return { heldForMs };
    return new BatchLease(
      keys,
      runId,
      leaseMs,
      renewEveryMs,
      (err) => this.logger.warn(`notification ${notificationId} batch ${seq}: its lease could not be renewed (${err.message}); it runs out in at most ${leaseMs} ms`),
      takenAt,
    );
  }

  async read(notificationId: string, seq: number): Promise<Map<string, DeviceOutcome>> {
    const all = await this.redis.hgetall(key(this.env, notificationId, seq));
    return new Map(Object.entries(all) as Array<[string, DeviceOutcome]>);
  }

  recorder(notificationId: string, seq: number): OutcomeRecorder {
    return new OutcomeRecorder(this.redis, key(this.env, notificationId, seq));
  }

  async clear(notificationId: string, seq: number): Promise<void> {
    await this.redis.del(key(this.env, notificationId, seq));
  }

  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Buffers outcomes and writes them once per event-loop turn (one HSET for many devices). */
export class OutcomeRecorder {
  /** What this recorder recorded, as written to Redis. */
  readonly outcomes = new Map<string, DeviceOutcome>();
  private buffer: string[] = [];
  private writes: Promise<void>[] = [];
  private failure?: Error;
  private scheduled = false;
  private expirySet = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
  ) {}

  record(deviceId: string, outcome: DeviceOutcome): void {
    this.outcomes.set(deviceId, outcome);
    this.buffer.push(deviceId, outcome);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.write());
    }
  }

  /** Resolves when everything recorded so far is in Redis; rejects if a write failed. */
  async flush(): Promise<void> {
    this.write();
    await Promise.all(this.writes);
    if (this.failure) throw this.failure;
  }

  private write(): void {
    this.scheduled = false;
    if (this.buffer.length === 0) return;
    const fields = this.buffer;
    this.buffer = [];
    const first = !this.expirySet;
    this.expirySet = true;
    const write = first
      ? this.redis
          .pipeline()
          .hset(this.key, ...fields)
          .expire(this.key, KEEP_SECONDS)
          .exec()
          .then(failIfError)
      : this.redis.hset(this.key, ...fields).then(() => undefined);
    this.writes.push(
      write.catch((err: Error) => {
        this.failure ??= err;
      }),
    );
  }
}

function failIfError(results: Array<[Error | null, unknown]> | null): void {
  const err = results?.find(([e]) => e)?.[0];
  if (err) throw err;
  if (results === null) throw new Error('progress write aborted');
}

function key(target: RedisTarget, notificationId: string, seq: number): string {
  return pushBatchProgressKey(target, notificationId, seq);
}
