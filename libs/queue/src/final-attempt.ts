import type { Job } from 'bullmq';

/** True while a job runs its last attempt: if this run throws, BullMQ will not run it again. */
export function isFinalAttempt(job: Pick<Job, 'attemptsMade' | 'opts'>): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
