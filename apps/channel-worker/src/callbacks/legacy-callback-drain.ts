import { Injectable } from '@nestjs/common';
import { CallbackEnv, CoreEnv } from '@platform/config';
import { CallbackJob, CallbackQueueNames, LegacyCallbackQueueNames, callbackJobOfLegacyPostback, callbackJobOfLegacyWebhook } from '@platform/contracts';
import { InjectQueue, type ProducerQueue, QueueJob, WorkerBase, callbackJobOptions, withTimeout } from '@platform/queue';

type CallbackQueue = ProducerQueue<typeof CallbackQueueNames.callback>;

/** Moves one job into the callback queue under the job id it had (so a job moved twice is one callback). */
async function move(queue: CallbackQueue, env: CallbackEnv, core: CoreEnv, name: 'deliver' | 'replay', job: CallbackJob, jobId: string): Promise<string> {
  await withTimeout(queue.add(name, job, callbackJobOptions(env, jobId)), core.REDIS_COMMAND_TIMEOUT_MS, 'moving a job to the callback queue');
  return 'moved';
}

/**
 * Drains `bot-webhook`, where gateways of the earlier version queued webhook calls (and sent them
 * themselves): during a rolling upgrade, or with jobs left behind by it, they are moved to the callback
 * queue rather than lost. A conversation's order is kept there, by the messages' rows.
 */
@Injectable()
export class LegacyBotWebhookDrain extends WorkerBase<typeof LegacyCallbackQueueNames.botWebhook> {
  constructor(
    private readonly core: CoreEnv,
    private readonly env: CallbackEnv,
    @InjectQueue(CallbackQueueNames.callback) private readonly queue: CallbackQueue,
  ) {
    super({ queue: LegacyCallbackQueueNames.botWebhook, redis: core, connectionName: 'channel-worker-legacy-webhooks', logName: 'LegacyBotWebhookDrain', concurrency: 1 });
  }

  protected process(job: QueueJob<typeof LegacyCallbackQueueNames.botWebhook>): Promise<unknown> {
    return move(this.queue, this.env, this.core, 'deliver', callbackJobOfLegacyWebhook(job.data), job.data.delivery.id);
  }
}

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
    return move(this.queue, this.env, this.core, job.name, callbackJobOfLegacyPostback(job.data), job.id ?? job.data.id);
  }
}
