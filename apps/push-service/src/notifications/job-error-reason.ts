import { TransientPushError } from '../fcm/transient-push.error.js';

/** The error as a failure reason a bot administrator may read: our own wording, never internals. */
export function describeJobError(err: unknown): string {
  if (err instanceof TransientPushError) return err.message;
  return 'an internal error of the push service (its log has the details)';
}
