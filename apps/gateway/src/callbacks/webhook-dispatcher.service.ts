import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { WebhookDelivery, webhookCallbackJob } from '@platform/contracts';
import { CallbackQueue, withTimeout } from '@platform/queue';

/**
 * Queues webhook calls to bots; resolves once the job is durable in Redis. The channel worker sends
 * them (the gateway makes no outbound calls) and retries them.
 */
@Injectable()
export class WebhookDispatcher {
  constructor(
    private readonly core: CoreEnv,
    private readonly queue: CallbackQueue,
  ) {}

  async enqueue(botId: string, delivery: WebhookDelivery): Promise<void> {
    const job = webhookCallbackJob(botId, delivery);
    await withTimeout(this.queue.add('deliver', job, { jobId: job.id }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the webhook call');
  }
}
