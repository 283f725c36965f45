import { CoreEnv } from '@platform/config';
import { CallbackJob } from '@platform/contracts';
import { type CallbackQueue, withTimeout } from '@platform/queue';

/** Moves one job into the callback queue under the job id it had (so a job moved twice is one callback). */
export async function moveToCallbackQueue(queue: CallbackQueue, core: CoreEnv, name: 'deliver' | 'replay', job: CallbackJob, jobId: string): Promise<string> {
  await withTimeout(queue.add(name, job, { jobId }), core.REDIS_COMMAND_TIMEOUT_MS, 'moving a job to the callback queue');
  return 'moved';
}
