import { IntEnv } from '../env-decorators.js';

/** Token lifetimes and the abuse limits of the login and OAuth endpoints (the gateway). */
export class AuthEnv {
  @IntEnv({ min: 60, max: 86400 })
  AUTH_ACCESS_TOKEN_TTL_SECONDS: number = 900;

  @IntEnv({ min: 300, max: 31536000 })
  AUTH_REFRESH_TOKEN_TTL_SECONDS: number = 2592000;

  /** Lifetime of an OAuth authorization code (RFC 6749 recommends at most 10 minutes). */
  @IntEnv({ min: 5, max: 600 })
  AUTH_CODE_TTL_SECONDS: number = 60;

  /** How long the OAuth login and consent form stays valid after GET /oauth/authorize. */
  @IntEnv({ min: 30, max: 3600 })
  AUTH_CONSENT_TTL_SECONDS: number = 600;

  /** Window of the login/token rate limits (fixed window in Redis, shared by every replica); SDK_RATE_LIMIT_PER_IP counts in it too. */
  @IntEnv({ min: 1, max: 86400 })
  AUTH_RATE_WINDOW_SECONDS: number = 60;

  /** Requests per window and client IP to login, refresh, /oauth/token, /oauth/revoke and the consent form. */
  @IntEnv({ min: 1 })
  AUTH_RATE_LIMIT_PER_IP: number = 30;

  /** Requests per window and OAuth client_id to /oauth/token and /oauth/revoke. */
  @IntEnv({ min: 1 })
  AUTH_RATE_LIMIT_PER_CLIENT: number = 60;

  /** Password attempts per window and account (e-mail), whatever the IP. */
  @IntEnv({ min: 1 })
  AUTH_RATE_LIMIT_PER_ACCOUNT: number = 10;
}
