import { Injectable } from '@nestjs/common';
import { CallbackEnv, CoreEnv } from '@platform/config';
import { CallbackQueueNames, LegacyCallbackQueueNames, callbackJobOfLegacyPostback } from '@platform/contracts';
import { InjectQueue, QueueJob, WorkerBase } from '@platform/queue';
import { type CallbackQueue, moveToCallbackQueue } from './move-to-callback-queue.js';

/** Drains `message-postback`, the earlier postback queue, into the callback queue (see LegacyBotWebhookDrain). */
@Injectable()
export class LegacyPostbackDrain extends WorkerBase<typeof LegacyCallbackQueueNames.postback> {
  constructor(
    private readonly core: CoreEnv,
    private readonly env: CallbackEnv,
    @InjectQueue(CallbackQueueNames.callback) private readonly queue: CallbackQueue,
  ) {
    super({ queue: LegacyCallbackQueueNames.postback, redis: core, connectionName: 'channel-worker-legacy-postbacks', logName: 'LegacyPostbackDrain', concurrency: 1 });
  }

  protected process(job: QueueJob<typeof LegacyCallbackQueueNames.postback>): Promise<unknown> {
    return moveToCallbackQueue(this.queue, this.env, this.core, job.name, callbackJobOfLegacyPostback(job.data), job.id ?? job.data.id);
  }
}
