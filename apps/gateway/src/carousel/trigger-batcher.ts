import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { PlatformEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { Channel, MessageRepository } from '@platform/database';
import { InjectQueue, withTimeout } from '@platform/queue';
import { QueueUnavailableError } from '../http/infra-errors.js';

export interface QueuedMessage {
  id: string;
  botId: string;
  templateId: string;
  senderId: string;
  channel: Channel;
  recipient: string;
}

interface Pending {
  message: QueuedMessage;
  job: CarouselDispatchJob;
  done: (err?: unknown) => void;
}

const MAX_BATCH = 500;

/**
 * Group commit of carousel triggers: the triggers accepted in one event-loop turn are written with one
 * INSERT and queued with one Redis MULTI (BullMQ addBulk), and each caller hears back only once its
 * job is in Redis. Under light load a batch is one trigger; under heavy load this is what keeps
 * Postgres and Redis round trips from dominating a request.
 */
@Injectable()
export class TriggerBatcher {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly messages: MessageRepository,
    private readonly env: PlatformEnv,
    @InjectQueue(QueueNames.carouselDispatch) private readonly queue: Queue<CarouselDispatchJob>,
  ) {}

  /** Resolves once the message row exists and its job is durably in Redis; rejects when either failed. */
  enqueue(message: QueuedMessage, job: CarouselDispatchJob): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ message, job, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) void this.commit(this.pending.splice(0, MAX_BATCH));
  }

  private async commit(batch: Pending[]): Promise<void> {
    try {
      await this.messages.insertQueued(batch.map((p) => p.message));
    } catch (err) {
      return batch.forEach((p) => p.done(err));
    }
    try {
      await withTimeout(
        this.queue.addBulk(
          batch.map((p) => ({
            name: 'send',
            data: p.job,
            opts: {
              jobId: p.message.id,
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
      await this.messages.deleteMany(batch.map((p) => p.message.id)).catch(() => undefined);
      const failure = new QueueUnavailableError(err);
      return batch.forEach((p) => p.done(failure));
    }
    batch.forEach((p) => p.done());
  }
}
