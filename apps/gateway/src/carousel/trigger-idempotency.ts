import { Inject, Injectable } from '@nestjs/common';
import { CoreEnv, TriggerGuardEnv } from '@platform/config';
import { MessageRepository } from '@platform/database';
import { CarouselDispatchQueue, REQUEST_REDIS, type RedisClient, triggerIdempotencyKey, withTimeout } from '@platform/queue';
import { IDEMPOTENCY_TTL_MS } from './trigger-gate.js';

/** What an Idempotency-Key's record holds: the body's fingerprint, the message id it was given, when it was claimed. */
export interface KeyRecord {
  f: string;
  m: string;
  t: number;
}

/** How a repeat of a key is answered. */
export type RepeatOutcome = { kind: 'replay'; msgId: string } | { kind: 'in-flight' } | { kind: 'other-body' } | { kind: 'retaken'; record: string; msgId: string };

// Replaces (or deletes, when ARGV[2] is empty) the record only if it is still the one that was read.
const SWAP_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;

type SwapRedis = RedisClient & {
  triggerKeySwap(key: string, expected: string, replacement: string, ttlMs: number): Promise<number>;
};

/**
 * Answers the repeats of an Idempotency-Key. A record is written once, when a trigger claims its key
 * (TriggerGate), and says nothing of the outcome: the message's job in Redis, or its row in Postgres
 * once the worker has taken it, proves the first request queued it. So the happy path costs no second
 * write, and a gateway that dies between queueing and answering still leaves a key that replays.
 */
@Injectable()
export class TriggerIdempotency {
  private readonly redis: SwapRedis;
  /** The clock of the records' claim times (unit tests set their own). */
  now: () => number = Date.now;

  constructor(
    private readonly env: TriggerGuardEnv,
    private readonly core: CoreEnv,
    @Inject(REQUEST_REDIS) redis: RedisClient,
    private readonly queue: CarouselDispatchQueue,
    private readonly messages: MessageRepository,
  ) {
    if (!('triggerKeySwap' in redis)) redis.defineCommand('triggerKeySwap', { numberOfKeys: 1, lua: SWAP_SCRIPT });
    this.redis = redis as SwapRedis;
  }

  /** The record as JSON, written out: the fingerprint is hex and the message id a UUID, so nothing needs escaping. */
  record(fingerprint: string, msgId: string): string {
    return `{"f":"${fingerprint}","m":"${msgId}","t":${this.now()}}`;
  }

  /**
   * A repeat of a key whose record is `existing`: another body is refused; a queued message is
   * answered again; an unqueued one is waited for while its request may still run (409), and after
   * TRIGGER_IDEMPOTENCY_IN_FLIGHT_MS taken over by this request (`retaken`, with a new message id).
   */
  async repeat(botId: string, key: string, existing: string, fingerprint: string, newMsgId: string): Promise<RepeatOutcome> {
    const found = JSON.parse(existing) as KeyRecord;
    if (found.f !== fingerprint) return { kind: 'other-body' };
    if (await this.wasQueued(botId, found.m)) return { kind: 'replay', msgId: found.m };
    if (this.now() - found.t < this.env.TRIGGER_IDEMPOTENCY_IN_FLIGHT_MS) return { kind: 'in-flight' };
    const record = this.record(fingerprint, newMsgId);
    const swapped = await this.swap(botId, key, existing, record);
    return swapped ? { kind: 'retaken', record, msgId: newMsgId } : { kind: 'in-flight' };
  }

  /** Frees a key whose request failed before queueing its message, so that a retry runs again; best effort. */
  async release(botId: string, key: string, record: string): Promise<void> {
    await this.swap(botId, key, record, '').catch(() => undefined);
  }

  private async wasQueued(botId: string, msgId: string): Promise<boolean> {
    const job = await withTimeout(this.queue.getJob(msgId), this.core.REDIS_COMMAND_TIMEOUT_MS, 'reading a queued message');
    return job !== undefined || (await this.messages.findForBot(botId, msgId)) !== null;
  }

  private async swap(botId: string, key: string, expected: string, replacement: string): Promise<boolean> {
    const done = this.redis.triggerKeySwap(triggerIdempotencyKey(this.core, botId, key), expected, replacement, IDEMPOTENCY_TTL_MS);
    return (await withTimeout(done, this.core.REDIS_COMMAND_TIMEOUT_MS, 'updating an Idempotency-Key')) === 1;
  }
}
