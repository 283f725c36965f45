import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'bullmq';
import { CoreEnv, WebhookDeliveryEnv } from '@platform/config';
import { BotWebhookJob, SdkQueueNames } from '@platform/contracts';
import { createWorkerRedis } from '@platform/queue';
import { WebhookSender } from './webhook-sender.js';

/** Runs webhook deliveries in every gateway replica; a failed call is retried with exponential backoff. */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDeliveryWorker');
  private worker?: Worker<BotWebhookJob>;
  private connection?: ReturnType<typeof createWorkerRedis>;

  constructor(
    private readonly env: WebhookDeliveryEnv,
    private readonly core: CoreEnv,
    private readonly sender: WebhookSender,
  ) {}

  onApplicationBootstrap() {
    this.worker = new Worker<BotWebhookJob>(SdkQueueNames.botWebhook, (job) => this.sender.send(job.data), {
      connection: (this.connection = createWorkerRedis(this.core.REDIS_URL, 'gateway-webhooks')),
      concurrency: this.env.WEBHOOK_CONCURRENCY,
    });
    this.worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
    this.worker.on('failed', (job, err) => {
      if (!job) return;
      const final = job.attemptsMade >= (job.opts.attempts ?? 1);
      const line = `${job.name} ${job.id}: attempt ${job.attemptsMade} failed: ${err.message}`;
      if (final) this.logger.error(`${line}; giving up`);
      else this.logger.warn(`${line}; will retry`);
    });
  }

  async onApplicationShutdown() {
    const [worker, connection] = [this.worker, this.connection];
    this.worker = this.connection = undefined;
    await worker?.close();
    await connection?.quit().catch(() => connection.disconnect());
  }
}
