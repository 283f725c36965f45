import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { RedisClient, RedisTarget, createRequestRedis, pushBatchProgressKey } from '@platform/queue';

/** Final outcome of one device in a batch: sent, failed, skipped, or invalid:<reason>. */
export type DeviceOutcome = 'sent' | 'failed' | 'skipped' | `invalid:${string}`;

const KEEP_SECONDS = 7 * 24 * 3600;

/**
 * Per-batch record of devices that already have a final outcome, in a Redis hash. A retried batch
 * skips them (no second message, no second count). Outcomes are written in small groups right after
 * FCM answers; a crash between an answer and its write (a few ms) can resend those few messages.
 */
@Injectable()
export class BatchProgressStore implements OnApplicationShutdown {
  private readonly redis: RedisClient;

  constructor(private readonly env: CoreEnv) {
    this.redis = createRequestRedis(env, 'push-progress', { enableAutoPipelining: true, enableOfflineQueue: true, maxRetriesPerRequest: 3 });
    this.redis.on('error', () => undefined);
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
