import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import type { DeduplicationOptions } from 'bullmq';
import { CarouselDispatchJob } from '@platform/contracts';
import { TickBatcher } from '@platform/common';
import { CarouselDispatchQueue, withTimeout } from '@platform/queue';
import { CorkedTurn } from './corked-turn.js';

/**
 * Jobs a batch carries before it leaves without waiting for the turn's end (still in one corked write). A whole turn in one batch
 * makes the gateway and Redis (appendfsync always) take turns: Redis idles while the gateway parses a
 * poll phase's requests, then the gateway idles while Redis syncs them. Batches of 8 to 32 keep both
 * busy; smaller ones pay a sync each (BENCHMARKS.md, carousel trigger).
 */
const FLUSH_AT = 16;

/** A job to queue; with `claim`, only if no message holds that Idempotency-Key (idempotencyClaim). */
export interface QueuedTrigger {
  job: CarouselDispatchJob;
  claim?: DeduplicationOptions;
}

/**
 * Group commit of carousel triggers: the jobs accepted in one event-loop turn go to Redis in one socket
 * write (with the turn's quota checks, CorkedTurn), and each caller hears back only once its job is in
 * Redis. Under light load a batch is one trigger; under heavy load this keeps Redis round trips and
 * syscalls from dominating a request, and a batch leaves every FLUSH_AT jobs.
 */
@Injectable()
export class TriggerBatcher {
  private readonly batches: TickBatcher<QueuedTrigger, string>;

  constructor(
    private readonly core: CoreEnv,
    private readonly queue: CarouselDispatchQueue,
    turn: CorkedTurn,
  ) {
    this.batches = new TickBatcher((batch) => this.commit(batch), { schedule: turn.schedule, flushAt: FLUSH_AT, runEarly: turn.now });
  }

  /**
   * Resolves once the job is durably in Redis, with its message id; or, when its claim found the key
   * held, with the id of the message holding it (nothing was queued). Rejects with
   * RedisUnavailableError when Redis did not answer.
   */
  enqueue(trigger: QueuedTrigger): Promise<string> {
    return this.batches.submit(trigger);
  }

  private async commit(batch: QueuedTrigger[]): Promise<string[]> {
    // One `add` per job in the turn's corked write: the commands leave together, as a pipeline would send
    // them, without BullMQ's addBulk pipeline, whose construction alone (ioredis copies BullMQ's 64
    // scripts onto every pipeline) costs ~60 µs.
    const added = batch.map(({ job, claim }) => this.queue.add('send', job, claim ? { jobId: job.messageId, deduplication: claim } : { jobId: job.messageId }));
    const jobs = await withTimeout(Promise.all(added), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the messages');
    return jobs.map((job) => job.id!);
  }
}
