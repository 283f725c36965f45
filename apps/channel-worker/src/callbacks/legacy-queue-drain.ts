import { Provider } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { CallbackJob, LegacyCallbackQueueNames, callbackJobOfLegacyPostback, callbackJobOfLegacyWebhook } from '@platform/contracts';
import { CallbackQueue, QueueJob, WorkerBase, withTimeout } from '@platform/queue';

type LegacyQueue = (typeof LegacyCallbackQueueNames)[keyof typeof LegacyCallbackQueueNames];

/** Where a legacy job goes: its job name in the callback queue, the callback, and the job id it keeps. */
type Moved = [name: 'deliver' | 'replay', job: CallbackJob, jobId: string];

/**
 * Drains a queue that callbacks went through before the callback queue, where gateways and workers of
 * the earlier version queued them: during a rolling upgrade, or with jobs left behind by it, each job
 * is moved to the callback queue rather than lost, under the job id it had (so a job moved twice is one
 * callback). A conversation's order is kept there, by the messages' rows.
 */
class LegacyQueueDrain<Q extends LegacyQueue> extends WorkerBase<Q> {
  constructor(
    private readonly core: CoreEnv,
    private readonly callbacks: CallbackQueue,
    queue: Q,
    private readonly moved: (job: QueueJob<Q>) => Moved,
  ) {
    super({ queue, redis: core, connectionName: `channel-worker-legacy-${queue}`, logName: `LegacyQueueDrain(${queue})`, concurrency: 1 });
  }

  protected async process(job: QueueJob<Q>): Promise<unknown> {
    const [name, callback, jobId] = this.moved(job);
    await withTimeout(this.callbacks.add(name, callback, { jobId }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'moving a job to the callback queue');
    return 'moved';
  }
}

function legacyQueueDrain<Q extends LegacyQueue>(queue: Q, moved: (job: QueueJob<Q>) => Moved): Provider {
  return {
    provide: `LegacyQueueDrain(${queue})`,
    useFactory: (core: CoreEnv, callbacks: CallbackQueue) => new LegacyQueueDrain(core, callbacks, queue, moved),
    inject: [CoreEnv, CallbackQueue],
  };
}

/** The drains of `bot-webhook` (webhook calls, which those gateways sent themselves) and `message-postback`. */
export const legacyQueueDrains: Provider[] = [
  legacyQueueDrain(LegacyCallbackQueueNames.botWebhook, (job) => ['deliver', callbackJobOfLegacyWebhook(job.data), job.data.delivery.id]),
  legacyQueueDrain(LegacyCallbackQueueNames.postback, (job) => [job.name, callbackJobOfLegacyPostback(job.data), job.id ?? job.data.id]),
];
