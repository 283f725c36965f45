import { IntEnv } from '../env-decorators.js';
import { outgoingCallsEnv } from './outgoing-calls-env.js';

/**
 * Message status postbacks (channel worker sends them; gateway and worker queue them) and the lifecycle
 * stream: POSTBACK_MAX_ATTEMPTS (15, spanning about 23 hours with the backoff), POSTBACK_BACKOFF_MS (5000),
 * POSTBACK_TIMEOUT_MS (10000), POSTBACK_CONCURRENCY (20 per channel worker process).
 */
export class PostbackEnv extends outgoingCallsEnv('POSTBACK', { maxAttempts: 15, backoffMs: 5000, timeoutMs: 10000, concurrency: 20 }) {
  /** Approximate bound of the lifecycle stream (XADD MAXLEN ~); older entries are trimmed. */
  @IntEnv({ min: 1000 })
  LIFECYCLE_STREAM_MAXLEN: number = 100000;
}
