import { IntEnv } from '../env-decorators.js';

/** Mobile SDK sessions, their event streams and the bot → app event backlog (the gateway). */
export class SdkEnv {
  /**
   * Calls an app may make without an API key (session starts, chat-token device registrations) per IP
   * and AUTH_RATE_WINDOW_SECONDS window, across replicas. High by default: many phones share a carrier's IP.
   */
  @IntEnv({ min: 1, max: 1000000 })
  SDK_RATE_LIMIT_PER_IP: number = 600;

  /** Idle lifetime of an SDK session; use (stream connections, app events) pushes it forward. */
  @IntEnv({ min: 60, max: 2592000 })
  SDK_SESSION_TTL_SECONDS: number = 86400;

  /** How long a new stream connection may take to send its auth frame before it is closed with 4401. */
  @IntEnv({ min: 100, max: 60000 })
  SDK_STREAM_AUTH_TIMEOUT_MS: number = 10000;

  /** WebSocket ping interval of event streams; a connection that misses a pong is dropped. */
  @IntEnv({ min: 100, max: 300000 })
  SDK_STREAM_PING_INTERVAL_MS: number = 25000;

  /** How long an unacked bot → app event is kept for its user (in Redis). */
  @IntEnv({ min: 1, max: 2592000 })
  SDK_EVENT_RETENTION_SECONDS: number = 86400;

  /** Unacked events kept per bot and user; beyond it the oldest are dropped. */
  @IntEnv({ min: 1, max: 100000 })
  SDK_EVENT_MAX_PER_USER: number = 1000;
}
