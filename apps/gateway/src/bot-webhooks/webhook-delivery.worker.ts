import { Injectable } from '@nestjs/common';
import { CoreEnv, WebhookDeliveryEnv } from '@platform/config';
import { SdkQueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { WebhookSender } from './webhook-sender.js';

/** Runs webhook deliveries in every gateway replica; a failed call is retried with exponential backoff. */
@Injectable()
export class WebhookDeliveryWorker extends WorkerBase<typeof SdkQueueNames.botWebhook> {
  constructor(
    core: CoreEnv,
    env: WebhookDeliveryEnv,
    private readonly sender: WebhookSender,
  ) {
    super({
      queue: SdkQueueNames.botWebhook,
      redisUrl: core.REDIS_URL,
      connectionName: 'gateway-webhooks',
      logName: 'WebhookDeliveryWorker',
      concurrency: env.WEBHOOK_CONCURRENCY,
    });
  }

  protected process(job: QueueJob<typeof SdkQueueNames.botWebhook>): Promise<unknown> {
    return this.sender.send(job.data);
  }
}
