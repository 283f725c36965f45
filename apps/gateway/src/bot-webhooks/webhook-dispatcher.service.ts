import { Injectable } from '@nestjs/common';
import { CoreEnv, WebhookDeliveryEnv } from '@platform/config';
import { SdkQueueNames, WebhookDelivery } from '@platform/contracts';
import { InjectQueue, type ProducerQueue, withTimeout } from '@platform/queue';

/** Queues webhook calls to bots; resolves once the job is durable in Redis (retries are the worker's). */
@Injectable()
export class WebhookDispatcher {
  constructor(
    private readonly env: WebhookDeliveryEnv,
    private readonly core: CoreEnv,
    @InjectQueue(SdkQueueNames.botWebhook) private readonly queue: ProducerQueue<typeof SdkQueueNames.botWebhook>,
  ) {}

  async enqueue(botId: string, delivery: WebhookDelivery): Promise<void> {
    const options = {
      jobId: delivery.id,
      attempts: this.env.WEBHOOK_MAX_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.env.WEBHOOK_BACKOFF_MS, jitter: 0.2 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    };
    await withTimeout(this.queue.add(delivery.type, { botId, delivery }, options), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the webhook call');
  }
}
