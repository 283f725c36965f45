import { IntEnv } from '../env-decorators.js';

/** The lifecycle stream of message status changes (and callback endpoint events), appended to by the gateway and the channel worker. */
export class LifecycleStreamEnv {
  /** Approximate bound of the lifecycle stream (XADD MAXLEN ~); older entries are trimmed. */
  @IntEnv({ min: 1000 })
  LIFECYCLE_STREAM_MAXLEN: number = 100000;
}
