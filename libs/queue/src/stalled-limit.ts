/**
 * The failedReason BullMQ gives a job that stalled more than its worker's maxStalledCount allows
 * (moveStalledJobsToWait leaves it as a deferred failure; the worker that takes the job next fails it
 * with it, without running the processor).
 */
export const STALLED_LIMIT_REASON = 'job stalled more than allowable limit';

/** True for the error a Worker's `failed` event carries when BullMQ failed the job for stalling too often. */
export function isStalledLimitFailure(err: { message?: string } | undefined): boolean {
  return err?.message === STALLED_LIMIT_REASON;
}
