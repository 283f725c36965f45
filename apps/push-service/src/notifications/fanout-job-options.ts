import { JobsOptions } from 'bullmq';
import { PushEnv } from '@platform/config';
import { TransientPushError } from '../fcm/transient-push.error.js';

/**
 * Retries with exponential backoff. Finished jobs are kept an hour: a batch's job id must still be
 * taken when a planner retry re-adds it, or that batch would be queued (and sent) twice.
 */
export function fanoutJobOptions(env: PushEnv, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: env.PUSH_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: env.PUSH_JOB_BACKOFF_MS, jitter: 0.5 },
    removeOnComplete: { age: 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** The error as a failure reason a bot administrator may read: our own wording, never internals. */
export function describeJobError(err: unknown): string {
  if (err instanceof TransientPushError) return err.message;
  return 'an internal error of the push service (its log has the details)';
}
