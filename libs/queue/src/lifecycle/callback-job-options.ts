import type { CallbackEnv } from '@platform/config';

/**
 * The BullMQ options of every callback job (bot webhook calls and postbacks alike): one retry schedule,
 * exponential backoff (about a day with the defaults). The job id is the event's, so queueing the same
 * event twice is one job.
 */
export function callbackJobOptions(env: CallbackEnv, jobId: string) {
  return {
    jobId,
    attempts: env.CALLBACK_MAX_ATTEMPTS,
    backoff: { type: 'exponential', delay: env.CALLBACK_BACKOFF_MS, jitter: 0.2 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}
