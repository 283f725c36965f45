import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { WebhookDelivery } from '@platform/contracts';
import { BotWebhookQueue, withTimeout } from '@platform/queue';

/** Queues webhook calls to bots; resolves once the job is durable in Redis (retries are the worker's). */
@Injectable()
export class WebhookDispatcher {
  constructor(
    private readonly core: CoreEnv,
    private readonly queue: BotWebhookQueue,
  ) {}

  async enqueue(botId: string, delivery: WebhookDelivery): Promise<void> {
    await withTimeout(this.queue.add(delivery.type, { botId, delivery }, { jobId: delivery.id }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the webhook call');
  }
}
