import { IntEnv } from '../env-decorators.js';

/** Message status postbacks (channel worker sends them; gateway and worker queue them) and the lifecycle stream. */
export class PostbackEnv {
  /** Attempts of one postback; with the backoff below, 15 attempts span about 23 hours. */
  @IntEnv({ min: 1, max: 50 })
  POSTBACK_MAX_ATTEMPTS: number = 15;

  /** First delay between attempts; doubles each time. */
  @IntEnv({ min: 1 })
  POSTBACK_BACKOFF_MS: number = 5000;

  /** Time a receiver has to answer one postback. */
  @IntEnv({ min: 100 })
  POSTBACK_TIMEOUT_MS: number = 10000;

  /** Postbacks one channel worker process sends at once. */
  @IntEnv({ min: 1, max: 1000 })
  POSTBACK_CONCURRENCY: number = 20;

  /** Approximate bound of the lifecycle stream (XADD MAXLEN ~); older entries are trimmed. */
  @IntEnv({ min: 1000 })
  LIFECYCLE_STREAM_MAXLEN: number = 100000;
}
