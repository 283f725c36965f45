import { Inject, Injectable } from '@nestjs/common';
import { AuthEnv, CoreEnv } from '@platform/config';
import { randomToken } from '@platform/crypto';
import { REQUEST_REDIS, type RedisClient, oauthAuthorizationRequestKey, withTimeout } from '@platform/queue';

/** A validated /oauth/authorize request waiting for the administrator's login and consent. */
export interface PendingAuthorization {
  id: string;
  /** Anti-CSRF token: in the form and in a cookie; both must match at submission. */
  csrf: string;
  clientDbId: string;
  clientId: string;
  clientName: string;
  botId: string;
  redirectUri: string;
  scope: string;
  state?: string;
  codeChallenge?: string;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** Pending authorization requests live in Redis (any replica may receive the form), for AUTH_CONSENT_TTL_SECONDS. */
@Injectable()
export class AuthorizationRequestStore {
  constructor(
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly env: AuthEnv,
    private readonly core: CoreEnv,
  ) {}

  async save(request: Omit<PendingAuthorization, 'id' | 'csrf'>): Promise<PendingAuthorization> {
    const pending = { ...request, id: randomToken(24), csrf: randomToken(32) };
    await withTimeout(this.redis.set(this.key(pending.id), JSON.stringify(pending), 'EX', this.env.AUTH_CONSENT_TTL_SECONDS), this.core.REDIS_COMMAND_TIMEOUT_MS, 'saving the authorization request');
    return pending;
  }

  async get(id: string): Promise<PendingAuthorization | null> {
    if (!ID_PATTERN.test(id)) return null;
    const raw = await withTimeout(this.redis.get(this.key(id)), this.core.REDIS_COMMAND_TIMEOUT_MS, 'reading the authorization request');
    return raw ? (JSON.parse(raw) as PendingAuthorization) : null;
  }

  /** Removes the request; true for exactly one caller, so a form can be approved once. */
  async take(id: string): Promise<boolean> {
    return (await withTimeout(this.redis.del(this.key(id)), this.core.REDIS_COMMAND_TIMEOUT_MS, 'closing the authorization request')) === 1;
  }

  private key(id: string): string {
    return oauthAuthorizationRequestKey(this.core, id);
  }
}
