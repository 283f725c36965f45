import { CallbackEnv, CoreEnv } from '@platform/config';
import { CallbackJob, CallbackQueueNames } from '@platform/contracts';
import { type ProducerQueue, callbackJobOptions, withTimeout } from '@platform/queue';

export type CallbackQueue = ProducerQueue<typeof CallbackQueueNames.callback>;

/** Moves one job into the callback queue under the job id it had (so a job moved twice is one callback). */
export async function moveToCallbackQueue(queue: CallbackQueue, env: CallbackEnv, core: CoreEnv, name: 'deliver' | 'replay', job: CallbackJob, jobId: string): Promise<string> {
  await withTimeout(queue.add(name, job, callbackJobOptions(env, jobId)), core.REDIS_COMMAND_TIMEOUT_MS, 'moving a job to the callback queue');
  return 'moved';
}
