import { Injectable } from '@nestjs/common';
import type { DeduplicationOptions } from 'bullmq';
import { CoreEnv } from '@platform/config';
import { MessageRepository } from '@platform/database';
import { CarouselDispatchQueue, withTimeout } from '@platform/queue';

/** How long an Idempotency-Key is held by the message it queued (and so replays its answer). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * The claim of a trigger's Idempotency-Key, made by its job's `add` (BullMQ's deduplication: the key is
 * set to the job's id, unless present, in the script that adds the job). So a key is held exactly when
 * its message is queued: a trigger refused or failed before queueing leaves it free, and a gateway that
 * dies after queueing, answered or not, leaves it held. Keys belong to a bot. (The claim is a key of the
 * carousel queue, `<prefix>:carousel-dispatch:de:<botId>:<key>`.)
 */
export function idempotencyClaim(botId: string, key: string): DeduplicationOptions {
  return { id: `${botId}:${key}`, ttl: IDEMPOTENCY_TTL_MS };
}

/** How a trigger whose key is held by another message is answered. */
export type RepeatOutcome = { kind: 'replay'; msgId: string } | { kind: 'other-body' };

/**
 * Answers the repeats of an Idempotency-Key. The holding message keeps its trigger's body fingerprint
 * (in its job, then in its row, which the worker's first attempt writes from the job), so a repeat
 * reads it only then, and the first request paid nothing for it.
 */
@Injectable()
export class TriggerIdempotency {
  constructor(
    private readonly core: CoreEnv,
    private readonly queue: CarouselDispatchQueue,
    private readonly messages: MessageRepository,
  ) {}

  /**
   * A repeat of a key held by message `heldBy`: the same body replays that message's answer, another
   * is refused. A holder whose fingerprint cannot be read (its job and row both removed) is replayed:
   * it was queued under this key, and sending twice is the worse mistake.
   */
  async repeat(botId: string, heldBy: string, fingerprint: string): Promise<RepeatOutcome> {
    const held = await this.fingerprintOf(botId, heldBy);
    return held === undefined || held === fingerprint ? { kind: 'replay', msgId: heldBy } : { kind: 'other-body' };
  }

  /** The message holding the bot's key, if one does. */
  async holder(botId: string, key: string): Promise<string | undefined> {
    const found = await withTimeout(this.queue.getDeduplicationJobId(idempotencyClaim(botId, key).id), this.core.REDIS_COMMAND_TIMEOUT_MS, 'reading an Idempotency-Key');
    return found ?? undefined;
  }

  private async fingerprintOf(botId: string, msgId: string): Promise<string | undefined> {
    const job = await withTimeout(this.queue.getJob(msgId), this.core.REDIS_COMMAND_TIMEOUT_MS, 'reading a queued message');
    if (job) return job.data.idempotencyFingerprint;
    return (await this.messages.findForBot(botId, msgId))?.idempotencyFingerprint ?? undefined;
  }
}
