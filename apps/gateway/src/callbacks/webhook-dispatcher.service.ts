import { Injectable } from '@nestjs/common';
import { CallbackEnv, CoreEnv } from '@platform/config';
import { CallbackQueueNames, WebhookDelivery, webhookCallbackJob } from '@platform/contracts';
import { InjectQueue, type ProducerQueue, callbackJobOptions, withTimeout } from '@platform/queue';

/**
 * Queues webhook calls to bots; resolves once the job is durable in Redis. The channel worker sends
 * them (the gateway makes no outbound calls) and retries them.
 */
@Injectable()
export class WebhookDispatcher {
  constructor(
    private readonly env: CallbackEnv,
    private readonly core: CoreEnv,
    @InjectQueue(CallbackQueueNames.callback) private readonly queue: ProducerQueue<typeof CallbackQueueNames.callback>,
  ) {}

  async enqueue(botId: string, delivery: WebhookDelivery): Promise<void> {
    const job = webhookCallbackJob(botId, delivery);
    await withTimeout(this.queue.add('deliver', job, callbackJobOptions(this.env, job.id)), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the webhook call');
  }
}
