import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { PlatformEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { MessageRepository, QueuedMessageRow, TickBatcher } from '@platform/database';
import { InjectQueue, withTimeout } from '@platform/queue';
import { QueueUnavailableError } from '../http/infra-errors.js';

interface Trigger {
  message: QueuedMessageRow;
  job: CarouselDispatchJob;
}

/**
 * Group commit of carousel triggers: the triggers accepted in one event-loop turn are written with one
 * INSERT and queued with one Redis MULTI (BullMQ addBulk), and each caller hears back only once its
 * job is in Redis. Under light load a batch is one trigger; under heavy load this is what keeps
 * Postgres and Redis round trips from dominating a request.
 */
@Injectable()
export class TriggerBatcher {
  private readonly batches = new TickBatcher<Trigger, void>((batch) => this.commit(batch));

  constructor(
    private readonly messages: MessageRepository,
    private readonly env: PlatformEnv,
    @InjectQueue(QueueNames.carouselDispatch) private readonly queue: Queue<CarouselDispatchJob>,
  ) {}

  /** Resolves once the message row exists and its job is durably in Redis; rejects when either failed. */
  enqueue(message: QueuedMessageRow, job: CarouselDispatchJob): Promise<void> {
    return this.batches.submit({ message, job });
  }

  private async commit(batch: Trigger[]): Promise<void[]> {
    await this.messages.insertQueued(batch.map((t) => t.message));
    try {
      await withTimeout(
        this.queue.addBulk(
          batch.map((t) => ({
            name: 'send',
            data: t.job,
            opts: {
              jobId: t.message.id,
              attempts: this.env.WHATSAPP_MAX_ATTEMPTS,
              backoff: { type: 'exponential', delay: this.env.WHATSAPP_BACKOFF_MS, jitter: 0.5 },
              removeOnComplete: { age: 24 * 3600, count: 10_000 },
              removeOnFail: { age: 7 * 24 * 3600 },
            },
          })),
        ),
        this.env.REDIS_COMMAND_TIMEOUT_MS,
        'queueing the messages',
      );
    } catch (err) {
      // Not queued, so not kept: the callers get 500 and retry; rows left behind would never move.
      await this.messages.deleteMany(batch.map((t) => t.message.id)).catch(() => undefined);
      throw new QueueUnavailableError(err);
    }
    return batch.map(() => undefined);
  }
}
