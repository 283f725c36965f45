import { Inject, Injectable } from '@nestjs/common';
import { JobsOptions } from 'bullmq';
import { CoreEnv, WhatsAppRetryEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { TickBatcher } from '@platform/common';
import { InjectQueue, type ProducerQueue, REQUEST_REDIS, type RedisClient, withTimeout } from '@platform/queue';

/**
 * Group commit of carousel triggers: the jobs accepted in one event-loop turn go to Redis in one socket
 * write, and each caller hears back only once its job is in Redis. Under light load a batch is one
 * trigger; under heavy load this keeps Redis round trips and syscalls from dominating a request.
 */
@Injectable()
export class TriggerBatcher {
  private readonly batches = new TickBatcher<CarouselDispatchJob, void>((batch) => this.commit(batch));
  private readonly options: Omit<JobsOptions, 'jobId'>;

  constructor(
    env: WhatsAppRetryEnv,
    private readonly core: CoreEnv,
    @InjectQueue(QueueNames.carouselDispatch) private readonly queue: ProducerQueue<typeof QueueNames.carouselDispatch>,
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
  ) {
    this.options = {
      attempts: env.WHATSAPP_MAX_ATTEMPTS,
      backoff: { type: 'exponential', delay: env.WHATSAPP_BACKOFF_MS, jitter: 0.5 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    };
  }

  /** Resolves once the job is durably in Redis; rejects with RedisUnavailableError when it is not. */
  enqueue(job: CarouselDispatchJob): Promise<void> {
    return this.batches.submit(job);
  }

  private async commit(batch: CarouselDispatchJob[]): Promise<void[]> {
    // One `add` per job with the socket corked until this turn's microtasks have run: the commands leave
    // in one write, as a pipeline would send them, without BullMQ's addBulk pipeline, whose construction
    // alone (ioredis copies BullMQ's 64 scripts onto every pipeline) costs ~60 µs. A Cluster client has
    // a socket per node and none to cork: there each add leaves on its own.
    const socket = 'stream' in this.redis ? this.redis.stream : undefined;
    socket?.cork();
    // A tick queued from a microtask runs once the whole microtask queue has drained, i.e. after every
    // add below has written its command; a setImmediate would hold them back behind the next poll phase.
    void Promise.resolve().then(() => process.nextTick(() => socket?.uncork()));
    await withTimeout(
      Promise.all(batch.map((job) => this.queue.add('send', job, { ...this.options, jobId: job.messageId }))),
      this.core.REDIS_COMMAND_TIMEOUT_MS,
      'queueing the messages',
    );
    return batch.map(() => undefined);
  }
}
