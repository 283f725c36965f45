import { Injectable } from '@nestjs/common';
import { DelayedError } from 'bullmq';
import { CoreEnv, WebhookDeliveryEnv } from '@platform/config';
import { SdkQueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { MessageDeliveryOrder } from './message-delivery-order.js';
import { WebhookSender } from './webhook-sender.js';

type WebhookJob = QueueJob<typeof SdkQueueNames.botWebhook>;

/** How long a conversation's message waits before it looks again whether the earlier one was taken. */
const ORDER_WAIT_MS = 1000;

/**
 * Runs webhook deliveries in every gateway replica; a failed call is retried with exponential backoff.
 * A user's messages reach the bot in the order of their conversation: one waits (without using an
 * attempt) until the one before it was answered 2xx or given up.
 */
@Injectable()
export class WebhookDeliveryWorker extends WorkerBase<typeof SdkQueueNames.botWebhook> {
  constructor(
    core: CoreEnv,
    env: WebhookDeliveryEnv,
    private readonly sender: WebhookSender,
    private readonly order: MessageDeliveryOrder,
  ) {
    super({
      queue: SdkQueueNames.botWebhook,
      redis: core,
      connectionName: 'gateway-webhooks',
      logName: 'WebhookDeliveryWorker',
      concurrency: env.WEBHOOK_CONCURRENCY,
      // Given up: the conversation's next message may go.
      giveUp: async (job) => {
        if (job.data.delivery.type === 'message.received') await this.order.release(job.data.delivery.id);
      },
    });
  }

  protected async process(job: WebhookJob, token?: string): Promise<unknown> {
    const delivery = job.data.delivery;
    if (delivery.type !== 'message.received') return this.sender.send(job.data);
    const turn = await this.order.turn(delivery.id);
    if (turn === 'erased') return 'erased';
    if (turn === 'wait') {
      await job.moveToDelayed(Date.now() + ORDER_WAIT_MS, token);
      throw new DelayedError(); // not an attempt: the message waits its turn
    }
    const result = await this.sender.send(job.data);
    await this.order.release(delivery.id);
    return result;
  }
}
