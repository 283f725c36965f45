import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { LegacyCallbackQueueNames, callbackJobOfLegacyWebhook } from '@platform/contracts';
import { CallbackQueue, QueueJob, WorkerBase } from '@platform/queue';
import { moveToCallbackQueue } from './move-to-callback-queue.js';

/**
 * Drains `bot-webhook`, where gateways of the earlier version queued webhook calls (and sent them
 * themselves): during a rolling upgrade, or with jobs left behind by it, they are moved to the callback
 * queue rather than lost. A conversation's order is kept there, by the messages' rows.
 */
@Injectable()
export class LegacyBotWebhookDrain extends WorkerBase<typeof LegacyCallbackQueueNames.botWebhook> {
  constructor(
    private readonly core: CoreEnv,
    private readonly queue: CallbackQueue,
  ) {
    super({ queue: LegacyCallbackQueueNames.botWebhook, redis: core, connectionName: 'channel-worker-legacy-webhooks', logName: 'LegacyBotWebhookDrain', concurrency: 1 });
  }

  protected process(job: QueueJob<typeof LegacyCallbackQueueNames.botWebhook>): Promise<unknown> {
    return moveToCallbackQueue(this.queue, this.core, 'deliver', callbackJobOfLegacyWebhook(job.data), job.data.delivery.id);
  }
}
