import { IntEnv } from '../env-decorators.js';

/** Requests from the gateway to the push service: read by both ends. */
export class PushRpcEnv {
  /** Longest a gateway request waits for the push service before answering 503 (the push service waits as long on a retried request still running). */
  @IntEnv({ min: 100 })
  PUSH_RPC_TIMEOUT_MS: number = 10000;
}
