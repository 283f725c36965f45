import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { PlatformEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { TickBatcher } from '@platform/database';
import { InjectQueue, withTimeout } from '@platform/queue';
import { QueueUnavailableError } from '../http/infra-errors.js';

/**
 * Group commit of carousel triggers: the jobs accepted in one event-loop turn are queued with one Redis
 * MULTI (BullMQ addBulk), and each caller hears back only once its job is in Redis. Under light load a
 * batch is one trigger; under heavy load this keeps Redis round trips from dominating a request.
 */
@Injectable()
export class TriggerBatcher {
  private readonly batches = new TickBatcher<CarouselDispatchJob, void>((batch) => this.commit(batch));

  constructor(
    private readonly env: PlatformEnv,
    @InjectQueue(QueueNames.carouselDispatch) private readonly queue: Queue<CarouselDispatchJob>,
  ) {}

  /** Resolves once the job is durably in Redis; rejects with QueueUnavailableError when it is not. */
  enqueue(job: CarouselDispatchJob): Promise<void> {
    return this.batches.submit(job);
  }

  private async commit(batch: CarouselDispatchJob[]): Promise<void[]> {
    try {
      await withTimeout(
        this.queue.addBulk(
          batch.map((job) => ({
            name: 'send',
            data: job,
            opts: {
              jobId: job.messageId,
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
      throw new QueueUnavailableError(err);
    }
    return batch.map(() => undefined);
  }
}
