import { IntEnv } from '../env-decorators.js';
import { outgoingCallsEnv } from './outgoing-calls-env.js';

/**
 * Callbacks: bot webhook calls and postbacks, queued by the gateway, the channel worker and the CLI,
 * sent by the channel worker, all on one retry schedule: CALLBACK_MAX_ATTEMPTS (15, spanning about 23
 * hours with the backoff), CALLBACK_BACKOFF_MS (5000, doubling), CALLBACK_TIMEOUT_MS (10000),
 * CALLBACK_CONCURRENCY (20 per channel worker process).
 */
export class CallbackEnv extends outgoingCallsEnv('CALLBACK', { maxAttempts: 15, backoffMs: 5000, timeoutMs: 10000, concurrency: 20 }) {
  /** An endpoint whose every attempt failed for this long is disabled (an `endpoint.disabled` event); 1..720. */
  @IntEnv({ min: 1, max: 720 })
  CALLBACK_DISABLE_AFTER_HOURS: number = 72;

  /** How long the previous signing secret keeps signing after a rotation, unless the call names its own; 1..720. */
  @IntEnv({ min: 1, max: 720 })
  CALLBACK_SECRET_ROTATION_HOURS: number = 24;
}
