import { Transform, plainToInstance } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/** Environment variables of the platform. Every app validates this once at start-up. */
export class PlatformEnv {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL: string;

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL: string;

  /** Comma-separated `keyId:base64Key` pairs; each key is 32 bytes (AES-256). */
  @Matches(/^[A-Za-z0-9_-]+:[A-Za-z0-9+/=]{43,44}(,[A-Za-z0-9_-]+:[A-Za-z0-9+/=]{43,44})*$/, {
    message: 'ENCRYPTION_KEYS must be comma-separated keyId:base64 pairs, each key 32 bytes (openssl rand -base64 32)',
  })
  ENCRYPTION_KEYS: string;

  /** Key id new secrets are encrypted under; defaults to the first of ENCRYPTION_KEYS. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'ENCRYPTION_ACTIVE_KEY_ID must be a key id from ENCRYPTION_KEYS' })
  ENCRYPTION_ACTIVE_KEY_ID?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  HOST: string = '127.0.0.1';

  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer' })
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @Transform(toInt)
  @IsInt({ message: 'PUSH_SERVICE_HEALTH_PORT must be an integer' })
  @Min(0)
  @Max(65535)
  PUSH_SERVICE_HEALTH_PORT: number = 3002;

  @Transform(toInt)
  @IsInt({ message: 'WORKER_HEALTH_PORT must be an integer' })
  @Min(0)
  @Max(65535)
  WORKER_HEALTH_PORT: number = 3001;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL: string = 'info';

  /** Public addresses ({base_url}, {auth_url}, {cloud_url} of the spec); one host serves all three by default. */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'BASE_URL must be an absolute URL' })
  BASE_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'AUTH_URL must be an absolute URL' })
  AUTH_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'CLOUD_URL must be an absolute URL' })
  CLOUD_URL?: string;

  /** Trust X-Forwarded-* headers (set true only behind a proxy that sets them; per-IP limits rely on it). */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'TRUST_PROXY must be true or false' })
  TRUST_PROXY: string = 'false';

  /** Serve Swagger UI at /docs (the OpenAPI document is always at /docs/openapi.json). */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'OPENAPI_UI must be true or false' })
  OPENAPI_UI: string = 'true';

  /** WhatsApp Cloud API base, e.g. https://graph.facebook.com/v21.0 (the local sandbox in development). */
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'WHATSAPP_API_BASE_URL must be an absolute URL' })
  WHATSAPP_API_BASE_URL: string = 'https://graph.facebook.com/v21.0';

  @Transform(toInt)
  @IsInt({ message: 'WHATSAPP_MAX_ATTEMPTS must be an integer' })
  @Min(1)
  @Max(50)
  WHATSAPP_MAX_ATTEMPTS: number = 5;

  @Transform(toInt)
  @IsInt({ message: 'WHATSAPP_BACKOFF_MS must be an integer' })
  @Min(1)
  WHATSAPP_BACKOFF_MS: number = 2000;

  @Transform(toInt)
  @IsInt({ message: 'WHATSAPP_TIMEOUT_MS must be an integer' })
  @Min(100)
  WHATSAPP_TIMEOUT_MS: number = 10000;

  /**
   * Carousel jobs in flight per worker process. Sending is I/O-bound (a Cloud API call takes ~100-300 ms),
   * so 20 would cap a worker near 100 messages/s; 100 also lets concurrent jobs share their database statements.
   */
  @Transform(toInt)
  @IsInt({ message: 'WORKER_CONCURRENCY must be an integer (1..1000)' })
  @Min(1, { message: 'WORKER_CONCURRENCY must be at least 1' })
  @Max(1000, { message: 'WORKER_CONCURRENCY must be at most 1000' })
  WORKER_CONCURRENCY: number = 100;

  /** How long a worker holds a job before another may take it over (stalled-job recovery). */
  @Transform(toInt)
  @IsInt({ message: 'WORKER_LOCK_MS must be an integer' })
  @Min(1000)
  WORKER_LOCK_MS: number = 30000;

  /**
   * Times a job may stall (its process stopped mid-run) and still run again; one more stall and BullMQ
   * fails it, and the app settles its message or notification as failed (0: the first stall fails it).
   */
  @Transform(toInt)
  @IsInt({ message: 'WORKER_MAX_STALLED_COUNT must be an integer (0..100)' })
  @Min(0, { message: 'WORKER_MAX_STALLED_COUNT must be at least 0' })
  @Max(100, { message: 'WORKER_MAX_STALLED_COUNT must be at most 100' })
  WORKER_MAX_STALLED_COUNT: number = 3;

  /** Upper bound on how long a request waits for Redis before it is answered 500. */
  @Transform(toInt)
  @IsInt({ message: 'REDIS_COMMAND_TIMEOUT_MS must be an integer' })
  @Min(50)
  REDIS_COMMAND_TIMEOUT_MS: number = 1500;

  /** How long gateway and worker keep a bot's templates and senders in memory (0: always read Postgres). */
  @Transform(toInt)
  @IsInt({ message: 'CATALOG_CACHE_MS must be an integer (milliseconds, 0..60000)' })
  @Min(0, { message: 'CATALOG_CACHE_MS must be at least 0' })
  @Max(60000, { message: 'CATALOG_CACHE_MS must be at most 60000' })
  CATALOG_CACHE_MS: number = 5000;

  // ── WhatsApp status webhooks (GET/POST /webhooks/whatsapp): set both to receive Meta's delivery receipts ──
  /** What Meta's verification handshake must present as hub.verify_token (chosen in the Meta app dashboard). */
  @IsOptional()
  @MinLength(8, { message: 'WHATSAPP_WEBHOOK_VERIFY_TOKEN must be at least 8 characters' })
  WHATSAPP_WEBHOOK_VERIFY_TOKEN?: string;

  /** The Meta app's secret: every webhook POST must carry its HMAC-SHA256 in X-Hub-Signature-256. */
  @IsOptional()
  @MinLength(8, { message: 'WHATSAPP_APP_SECRET must be at least 8 characters' })
  WHATSAPP_APP_SECRET?: string;

  // ── Authentication (issue 3): token lifetimes and abuse limits of login and OAuth endpoints ──
  @Transform(toInt)
  @IsInt({ message: 'AUTH_ACCESS_TOKEN_TTL_SECONDS must be an integer (seconds, 60..86400)' })
  @Min(60, { message: 'AUTH_ACCESS_TOKEN_TTL_SECONDS must be at least 60' })
  @Max(86400, { message: 'AUTH_ACCESS_TOKEN_TTL_SECONDS must be at most 86400' })
  AUTH_ACCESS_TOKEN_TTL_SECONDS: number = 900;

  @Transform(toInt)
  @IsInt({ message: 'AUTH_REFRESH_TOKEN_TTL_SECONDS must be an integer (seconds, 300..31536000)' })
  @Min(300, { message: 'AUTH_REFRESH_TOKEN_TTL_SECONDS must be at least 300' })
  @Max(31536000, { message: 'AUTH_REFRESH_TOKEN_TTL_SECONDS must be at most 31536000' })
  AUTH_REFRESH_TOKEN_TTL_SECONDS: number = 2592000;

  /** Lifetime of an OAuth authorization code (RFC 6749 recommends at most 10 minutes). */
  @Transform(toInt)
  @IsInt({ message: 'AUTH_CODE_TTL_SECONDS must be an integer (seconds, 5..600)' })
  @Min(5, { message: 'AUTH_CODE_TTL_SECONDS must be at least 5' })
  @Max(600, { message: 'AUTH_CODE_TTL_SECONDS must be at most 600' })
  AUTH_CODE_TTL_SECONDS: number = 60;

  /** How long the OAuth login and consent form stays valid after GET /oauth/authorize. */
  @Transform(toInt)
  @IsInt({ message: 'AUTH_CONSENT_TTL_SECONDS must be an integer (seconds, 30..3600)' })
  @Min(30, { message: 'AUTH_CONSENT_TTL_SECONDS must be at least 30' })
  @Max(3600, { message: 'AUTH_CONSENT_TTL_SECONDS must be at most 3600' })
  AUTH_CONSENT_TTL_SECONDS: number = 600;

  /** Window of the login/token rate limits (fixed window in Redis, shared by every replica). */
  @Transform(toInt)
  @IsInt({ message: 'AUTH_RATE_WINDOW_SECONDS must be an integer (seconds, 1..86400)' })
  @Min(1, { message: 'AUTH_RATE_WINDOW_SECONDS must be at least 1' })
  @Max(86400, { message: 'AUTH_RATE_WINDOW_SECONDS must be at most 86400' })
  AUTH_RATE_WINDOW_SECONDS: number = 60;

  /** Requests per window and client IP to login, refresh, /oauth/token, /oauth/revoke and the consent form. */
  @Transform(toInt)
  @IsInt({ message: 'AUTH_RATE_LIMIT_PER_IP must be an integer (at least 1)' })
  @Min(1, { message: 'AUTH_RATE_LIMIT_PER_IP must be at least 1' })
  AUTH_RATE_LIMIT_PER_IP: number = 30;

  /** Requests per window and OAuth client_id to /oauth/token and /oauth/revoke. */
  @Transform(toInt)
  @IsInt({ message: 'AUTH_RATE_LIMIT_PER_CLIENT must be an integer (at least 1)' })
  @Min(1, { message: 'AUTH_RATE_LIMIT_PER_CLIENT must be at least 1' })
  AUTH_RATE_LIMIT_PER_CLIENT: number = 60;

  /** Password attempts per window and account (e-mail), whatever the IP. */
  @Transform(toInt)
  @IsInt({ message: 'AUTH_RATE_LIMIT_PER_ACCOUNT must be an integer (at least 1)' })
  @Min(1, { message: 'AUTH_RATE_LIMIT_PER_ACCOUNT must be at least 1' })
  AUTH_RATE_LIMIT_PER_ACCOUNT: number = 10;

  // ── Push notifications (issue 4): push service, FCM HTTP v1 client, fan-out ──
  /** FCM HTTP v1 origin (a loopback FCM server in tests and the local demo). */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'FCM_API_BASE_URL must be an http(s) URL' })
  FCM_API_BASE_URL: string = 'https://fcm.googleapis.com';

  /** Accept service accounts whose token_uri is http://127.0.0.1 or http://localhost (tests and the local demo only). */
  @IsIn(['true', 'false'], { message: 'PUSH_ALLOW_INSECURE_TOKEN_URI must be true or false' })
  PUSH_ALLOW_INSECURE_TOKEN_URI: string = 'false';

  /** Longest a gateway request waits for the push service before answering 503. */
  @Transform(toInt)
  @IsInt({ message: 'PUSH_RPC_TIMEOUT_MS must be an integer (milliseconds, at least 100)' })
  @Min(100, { message: 'PUSH_RPC_TIMEOUT_MS must be at least 100' })
  PUSH_RPC_TIMEOUT_MS: number = 10000;

  /** FCM requests in flight at once per push-service process (HTTP/2 streams, at most the server's limit per session). */
  @Transform(toInt)
  @IsInt({ message: 'FCM_MAX_IN_FLIGHT must be an integer (1..1000)' })
  @Min(1, { message: 'FCM_MAX_IN_FLIGHT must be at least 1' })
  @Max(1000, { message: 'FCM_MAX_IN_FLIGHT must be at most 1000' })
  FCM_MAX_IN_FLIGHT: number = 500;

  /** Worker threads that carry the FCM HTTP/2 traffic (each its own sessions); 0 = the main thread. */
  @Transform(toInt)
  @IsInt({ message: 'FCM_SENDER_THREADS must be an integer (0..16)' })
  @Min(0, { message: 'FCM_SENDER_THREADS must be at least 0' })
  @Max(16, { message: 'FCM_SENDER_THREADS must be at most 16' })
  FCM_SENDER_THREADS: number = 2;

  /** Timeout of one FCM or token-endpoint request. */
  @Transform(toInt)
  @IsInt({ message: 'FCM_TIMEOUT_MS must be an integer (milliseconds, at least 100)' })
  @Min(100, { message: 'FCM_TIMEOUT_MS must be at least 100' })
  FCM_TIMEOUT_MS: number = 5000;

  /** Tries of one message on FCM 500/503/timeouts within a batch (then the batch job is retried later). */
  @Transform(toInt)
  @IsInt({ message: 'FCM_MAX_ATTEMPTS must be an integer (1..20)' })
  @Min(1, { message: 'FCM_MAX_ATTEMPTS must be at least 1' })
  @Max(20, { message: 'FCM_MAX_ATTEMPTS must be at most 20' })
  FCM_MAX_ATTEMPTS: number = 4;

  /** First backoff after FCM 500/503 (doubles each time, with jitter). */
  @Transform(toInt)
  @IsInt({ message: 'FCM_BACKOFF_MS must be an integer (milliseconds, at least 1)' })
  @Min(1, { message: 'FCM_BACKOFF_MS must be at least 1' })
  FCM_BACKOFF_MS: number = 500;

  /** Devices per fan-out batch job. */
  @Transform(toInt)
  @IsInt({ message: 'PUSH_BATCH_SIZE must be an integer (1..5000)' })
  @Min(1, { message: 'PUSH_BATCH_SIZE must be at least 1' })
  @Max(5000, { message: 'PUSH_BATCH_SIZE must be at most 5000' })
  PUSH_BATCH_SIZE: number = 1000;

  /** Fan-out jobs a push-service process runs at once (they share FCM_MAX_IN_FLIGHT). */
  @Transform(toInt)
  @IsInt({ message: 'PUSH_WORKER_CONCURRENCY must be an integer (1..100)' })
  @Min(1, { message: 'PUSH_WORKER_CONCURRENCY must be at least 1' })
  @Max(100, { message: 'PUSH_WORKER_CONCURRENCY must be at most 100' })
  PUSH_WORKER_CONCURRENCY: number = 4;

  /** Runs of a fan-out job before its remaining devices count as failed. */
  @Transform(toInt)
  @IsInt({ message: 'PUSH_JOB_ATTEMPTS must be an integer (1..50)' })
  @Min(1, { message: 'PUSH_JOB_ATTEMPTS must be at least 1' })
  @Max(50, { message: 'PUSH_JOB_ATTEMPTS must be at most 50' })
  PUSH_JOB_ATTEMPTS: number = 5;

  /** First backoff between runs of a fan-out job (exponential). */
  @Transform(toInt)
  @IsInt({ message: 'PUSH_JOB_BACKOFF_MS must be an integer (milliseconds, at least 1)' })
  @Min(1, { message: 'PUSH_JOB_BACKOFF_MS must be at least 1' })
  PUSH_JOB_BACKOFF_MS: number = 10000;

  // ── Mobile SDK sessions, bot → app events and bot webhooks (issue 5) ──
  /**
   * Calls an app may make without an API key (session starts, chat-token device registrations) per IP
   * and AUTH_RATE_WINDOW_SECONDS window, across replicas. High by default: many phones share a carrier's IP.
   */
  @Transform(toInt)
  @IsInt({ message: 'SDK_RATE_LIMIT_PER_IP must be an integer (1..1000000)' })
  @Min(1, { message: 'SDK_RATE_LIMIT_PER_IP must be at least 1' })
  @Max(1000000, { message: 'SDK_RATE_LIMIT_PER_IP must be at most 1000000' })
  SDK_RATE_LIMIT_PER_IP: number = 600;

  /** Idle lifetime of an SDK session; use (stream connections, app events) pushes it forward. */
  @Transform(toInt)
  @IsInt({ message: 'SDK_SESSION_TTL_SECONDS must be an integer (seconds, 60..2592000)' })
  @Min(60, { message: 'SDK_SESSION_TTL_SECONDS must be at least 60' })
  @Max(2592000, { message: 'SDK_SESSION_TTL_SECONDS must be at most 2592000' })
  SDK_SESSION_TTL_SECONDS: number = 86400;

  /** How long a new stream connection may take to send its auth frame before it is closed with 4401. */
  @Transform(toInt)
  @IsInt({ message: 'SDK_STREAM_AUTH_TIMEOUT_MS must be an integer (milliseconds, 100..60000)' })
  @Min(100, { message: 'SDK_STREAM_AUTH_TIMEOUT_MS must be at least 100' })
  @Max(60000, { message: 'SDK_STREAM_AUTH_TIMEOUT_MS must be at most 60000' })
  SDK_STREAM_AUTH_TIMEOUT_MS: number = 10000;

  /** WebSocket ping interval of event streams; a connection that misses a pong is dropped. */
  @Transform(toInt)
  @IsInt({ message: 'SDK_STREAM_PING_INTERVAL_MS must be an integer (milliseconds, 100..300000)' })
  @Min(100, { message: 'SDK_STREAM_PING_INTERVAL_MS must be at least 100' })
  @Max(300000, { message: 'SDK_STREAM_PING_INTERVAL_MS must be at most 300000' })
  SDK_STREAM_PING_INTERVAL_MS: number = 25000;

  /** How long an unacked bot → app event is kept for its user (in Redis). */
  @Transform(toInt)
  @IsInt({ message: 'SDK_EVENT_RETENTION_SECONDS must be an integer (seconds, 1..2592000)' })
  @Min(1, { message: 'SDK_EVENT_RETENTION_SECONDS must be at least 1' })
  @Max(2592000, { message: 'SDK_EVENT_RETENTION_SECONDS must be at most 2592000' })
  SDK_EVENT_RETENTION_SECONDS: number = 86400;

  /** Unacked events kept per bot and user; beyond it the oldest are dropped. */
  @Transform(toInt)
  @IsInt({ message: 'SDK_EVENT_MAX_PER_USER must be an integer (1..100000)' })
  @Min(1, { message: 'SDK_EVENT_MAX_PER_USER must be at least 1' })
  @Max(100000, { message: 'SDK_EVENT_MAX_PER_USER must be at most 100000' })
  SDK_EVENT_MAX_PER_USER: number = 1000;

  /** Accept http:// bot webhook URLs (development and tests); otherwise https only. */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'WEBHOOK_ALLOW_HTTP must be true or false' })
  WEBHOOK_ALLOW_HTTP: string = 'false';

  /** Delivery attempts of one webhook call before it is given up (kept as a failed job). */
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_MAX_ATTEMPTS must be an integer (1..50)' })
  @Min(1, { message: 'WEBHOOK_MAX_ATTEMPTS must be at least 1' })
  @Max(50, { message: 'WEBHOOK_MAX_ATTEMPTS must be at most 50' })
  WEBHOOK_MAX_ATTEMPTS: number = 12;

  /** First delay between webhook attempts; doubles each time (12 attempts span about 2.3 h at 2000). */
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_BACKOFF_MS must be an integer (milliseconds, at least 1)' })
  @Min(1, { message: 'WEBHOOK_BACKOFF_MS must be at least 1' })
  WEBHOOK_BACKOFF_MS: number = 2000;

  /** Time a bot's webhook has to answer one call. */
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_TIMEOUT_MS must be an integer (milliseconds, at least 100)' })
  @Min(100, { message: 'WEBHOOK_TIMEOUT_MS must be at least 100' })
  WEBHOOK_TIMEOUT_MS: number = 10000;

  /** Webhook calls one gateway process makes at once. */
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_CONCURRENCY must be an integer (1..1000)' })
  @Min(1, { message: 'WEBHOOK_CONCURRENCY must be at least 1' })
  @Max(1000, { message: 'WEBHOOK_CONCURRENCY must be at most 1000' })
  WEBHOOK_CONCURRENCY: number = 10;

  /** Days a conversation message is kept (web chat and WhatsApp transcripts); older ones are deleted. */
  @Transform(toInt)
  @IsInt({ message: 'CONVERSATION_RETENTION_DAYS must be an integer (days, 1..3650)' })
  @Min(1, { message: 'CONVERSATION_RETENTION_DAYS must be at least 1' })
  @Max(3650, { message: 'CONVERSATION_RETENTION_DAYS must be at most 3650' })
  CONVERSATION_RETENTION_DAYS: number = 90;

  /** Directory of the bundled hosted chat page served at /web/bot (default: dist/web-chat beside the build). */
  @IsOptional()
  @IsString({ message: 'WEB_CHAT_DIR must be a path' })
  WEB_CHAT_DIR?: string;
}

export class ConfigError extends Error {}

/** Validates the environment; throws a ConfigError naming every bad or missing variable. */
export function loadPlatformEnv(env: NodeJS.ProcessEnv = process.env): PlatformEnv {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = plainToInstance(PlatformEnv, defined, { exposeDefaultValues: true });
  const errors = validateSync(parsed, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) =>
      e.value === undefined ? `${e.property} is required` : Object.values(e.constraints ?? {}).join('; '),
    );
    throw new ConfigError(`Invalid configuration:\n  - ${lines.join('\n  - ')}`);
  }
  const keyIds = parsed.ENCRYPTION_KEYS.split(',').map((p) => p.split(':')[0]);
  if (parsed.ENCRYPTION_ACTIVE_KEY_ID && !keyIds.includes(parsed.ENCRYPTION_ACTIVE_KEY_ID)) {
    throw new ConfigError(
      `Invalid configuration:\n  - ENCRYPTION_ACTIVE_KEY_ID "${parsed.ENCRYPTION_ACTIVE_KEY_ID}" is not among ENCRYPTION_KEYS`,
    );
  }
  if (!parsed.WHATSAPP_WEBHOOK_VERIFY_TOKEN !== !parsed.WHATSAPP_APP_SECRET) {
    throw new ConfigError('Invalid configuration:\n  - WHATSAPP_WEBHOOK_VERIFY_TOKEN and WHATSAPP_APP_SECRET must be set together (or neither)');
  }
  const base = (parsed.BASE_URL ?? `http://${parsed.HOST}:${parsed.PORT}`).replace(/\/$/, '');
  parsed.BASE_URL = base;
  parsed.AUTH_URL = (parsed.AUTH_URL ?? base).replace(/\/$/, '');
  parsed.CLOUD_URL = (parsed.CLOUD_URL ?? base).replace(/\/$/, '');
  parsed.WHATSAPP_API_BASE_URL = parsed.WHATSAPP_API_BASE_URL.replace(/\/$/, '');
  parsed.FCM_API_BASE_URL = parsed.FCM_API_BASE_URL.replace(/\/$/, '');
  return parsed;
}
