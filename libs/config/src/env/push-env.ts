import { BoolEnv, IntEnv, UrlEnv } from '../env-decorators.js';
import { ListenEnv } from './listen-env.js';

/** The push service: its FCM HTTP v1 client, its fan-out jobs and its /health server. */
export class PushEnv extends ListenEnv {
  @IntEnv({ min: 0, max: 65535 })
  PUSH_SERVICE_HEALTH_PORT: number = 3002;

  /** FCM HTTP v1 origin (a loopback FCM server in tests and the local demo). */
  @UrlEnv({ protocols: ['http', 'https'] })
  FCM_API_BASE_URL: string = 'https://fcm.googleapis.com';

  /** Accept service accounts whose token_uri is http://127.0.0.1 or http://localhost (tests and the local demo only). */
  @BoolEnv()
  PUSH_ALLOW_INSECURE_TOKEN_URI: boolean = false;

  /** FCM requests in flight at once per push-service process (HTTP/2 streams, at most the server's limit per session). */
  @IntEnv({ min: 1, max: 1000 })
  FCM_MAX_IN_FLIGHT: number = 500;

  /** Worker threads that carry the FCM HTTP/2 traffic (each its own sessions); 0 = the main thread. */
  @IntEnv({ min: 0, max: 16 })
  FCM_SENDER_THREADS: number = 2;

  /** Timeout of one FCM or token-endpoint request. */
  @IntEnv({ min: 100 })
  FCM_TIMEOUT_MS: number = 5000;

  /** Tries of one message on FCM 500/503/timeouts within a batch (then the batch job is retried later). */
  @IntEnv({ min: 1, max: 20 })
  FCM_MAX_ATTEMPTS: number = 4;

  /** First backoff after FCM 500/503 (doubles each time, with jitter). */
  @IntEnv({ min: 1 })
  FCM_BACKOFF_MS: number = 500;

  /**
   * FCM messages a minute per Firebase project, across every push-service replica, for bots without a
   * quota of their own (`push set-quota`). FCM's default quota is 600,000 a minute per project.
   */
  @IntEnv({ min: 60, max: 1_000_000_000 })
  PUSH_FCM_QUOTA_PER_MINUTE: number = 600_000;

  /**
   * After FCM answers 429 for a project (once its Retry-After is over), every push service sends its
   * messages at half the quota for this long (a quarter if 429s come again meanwhile), then at the full
   * quota again: the pace recovers by itself.
   */
  @IntEnv({ min: 1000, max: 3_600_000 })
  PUSH_FCM_SLOW_DOWN_MS: number = 60_000;

  /** Devices per fan-out batch job. */
  @IntEnv({ min: 1, max: 5000 })
  PUSH_BATCH_SIZE: number = 1000;

  /** Fan-out jobs a push-service process runs at once (they share FCM_MAX_IN_FLIGHT). */
  @IntEnv({ min: 1, max: 100 })
  PUSH_WORKER_CONCURRENCY: number = 4;

  /** Runs of a fan-out job before its remaining devices count as failed. */
  @IntEnv({ min: 1, max: 50 })
  PUSH_JOB_ATTEMPTS: number = 5;

  /** First backoff between runs of a fan-out job (exponential). */
  @IntEnv({ min: 1 })
  PUSH_JOB_BACKOFF_MS: number = 10000;
}
