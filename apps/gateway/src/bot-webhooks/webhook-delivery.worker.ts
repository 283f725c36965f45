import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, Worker } from 'bullmq';
import { PlatformEnv } from '@platform/config';
import { BotWebhookJob, SdkQueueNames } from '@platform/contracts';
import { createWorkerRedis } from '@platform/queue';
import { MessageDeliveryOrder } from './message-delivery-order.js';
import { WebhookSender } from './webhook-sender.js';

/** How long a conversation's message waits before it looks again whether the earlier one was taken. */
const ORDER_WAIT_MS = 1000;

/** Runs webhook deliveries in every gateway replica; a failed call is retried with exponential backoff. */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDeliveryWorker');
  private worker?: Worker<BotWebhookJob>;
  private connection?: ReturnType<typeof createWorkerRedis>;

  constructor(
    private readonly env: PlatformEnv,
    private readonly sender: WebhookSender,
    private readonly order: MessageDeliveryOrder,
  ) {}

  onApplicationBootstrap() {
    this.worker = new Worker<BotWebhookJob>(SdkQueueNames.botWebhook, (job, token) => this.process(job, token), {
      connection: (this.connection = createWorkerRedis(this.env.REDIS_URL, 'gateway-webhooks')),
      concurrency: this.env.WEBHOOK_CONCURRENCY,
    });
    this.worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
    this.worker.on('failed', (job, err) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1);
      const line = `${job.name} ${job.id}: attempt ${job.attemptsMade} failed: ${err.message}`;
      if (final && job.data.delivery.type === 'message.received') {
        // Given up: the conversation's next message may go.
        void this.order.settle(job.data.delivery.id).catch((e: Error) => this.logger.warn(`settling ${job.id} failed: ${e.message}`));
      }
      if (final) this.logger.error(`${line}; giving up`);
      else this.logger.warn(`${line}; will retry`);
    });
  }

  private async process(job: Job<BotWebhookJob>, token?: string) {
    const delivery = job.data.delivery;
    if (delivery.type !== 'message.received') return this.sender.send(job.data);
    const turn = await this.order.turn(delivery.id);
    if (turn === 'erased') return 'erased';
    if (turn === 'wait') {
      await job.moveToDelayed(Date.now() + ORDER_WAIT_MS, token);
      throw new DelayedError(); // not an attempt: the message waits its turn
    }
    const result = await this.sender.send(job.data);
    await this.order.settle(delivery.id);
    return result;
  }

  async onApplicationShutdown() {
    const [worker, connection] = [this.worker, this.connection];
    this.worker = this.connection = undefined;
    await worker?.close();
    await connection?.quit().catch(() => connection.disconnect());
  }
}
