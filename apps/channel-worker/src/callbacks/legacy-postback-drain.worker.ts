import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { LegacyCallbackQueueNames, callbackJobOfLegacyPostback } from '@platform/contracts';
import { CallbackQueue, QueueJob, WorkerBase } from '@platform/queue';
import { moveToCallbackQueue } from './move-to-callback-queue.js';

/** Drains `message-postback`, the earlier postback queue, into the callback queue (see LegacyBotWebhookDrain). */
@Injectable()
export class LegacyPostbackDrain extends WorkerBase<typeof LegacyCallbackQueueNames.postback> {
  constructor(
    private readonly core: CoreEnv,
    private readonly queue: CallbackQueue,
  ) {
    super({ queue: LegacyCallbackQueueNames.postback, redis: core, connectionName: 'channel-worker-legacy-postbacks', logName: 'LegacyPostbackDrain', concurrency: 1 });
  }

  protected process(job: QueueJob<typeof LegacyCallbackQueueNames.postback>): Promise<unknown> {
    return moveToCallbackQueue(this.queue, this.core, job.name, callbackJobOfLegacyPostback(job.data), job.id ?? job.data.id);
  }
}
