import { Inject, Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';
import { CoreEnv } from '@platform/config';
import { REQUEST_REDIS, type RedisClient, type RedisTarget, fcmAccessTokenKey } from '@platform/queue';
import type { LoadedPushConfig } from '../service-accounts/push-config.service.js';
import { GoogleTokenClient, MintedToken } from './google-token.client.js';

const MAX_REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * OAuth access tokens for FCM, one per bot and config version, used until shortly before expiry.
 * Cached in Redis (sealed with SecretBox, shared by every push-service replica, so a fleet mints one
 * token per bot per hour) and memoised in the process; concurrent misses share one mint.
 */
@Injectable()
export class AccessTokenProvider {
  private readonly logger = new Logger('AccessTokens');
  private readonly memo = new Map<string, CachedToken>();
  private readonly inflight = new Map<string, Promise<CachedToken>>();
  /** Per cache key, the last token FCM refused: a fetch that finds it still in Redis mints instead. */
  private readonly refused = new Map<string, string>();

  constructor(
    private readonly google: GoogleTokenClient,
    private readonly box: SecretBox,
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly core: CoreEnv,
  ) {}

  /** The memoised token when it is still good (no promise: the per-message fast path). */
  peek(config: LoadedPushConfig): string | undefined {
    const memo = this.memo.get(cacheKey(this.core, config));
    return memo && usable(memo) ? memo.accessToken : undefined;
  }

  async get(config: LoadedPushConfig): Promise<string> {
    const key = cacheKey(this.core, config);
    const memo = this.memo.get(key);
    if (memo && usable(memo)) return memo.accessToken;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetch(config, key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return (await pending).accessToken;
  }

  /** FCM refused `accessToken` (401): forget it so the next get() mints a new one. */
  async invalidate(config: LoadedPushConfig, accessToken: string): Promise<void> {
    const key = cacheKey(this.core, config);
    // Before the Redis round trips below: a get() meanwhile would otherwise read the token back from
    // Redis and memoise it again, and the next send would meet the same 401.
    this.refused.set(key, accessToken);
    if (this.memo.get(key)?.accessToken === accessToken) this.memo.delete(key);
    const stored = await this.readShared(key);
    if (stored?.accessToken === accessToken) await this.redis.del(key).catch(() => undefined);
  }

  private async fetch(config: LoadedPushConfig, key: string): Promise<CachedToken> {
    const shared = await this.readShared(key);
    if (shared && usable(shared) && shared.accessToken !== this.refused.get(key)) {
      this.memo.set(key, shared);
      return shared;
    }
    const minted = withRefreshTime(await this.google.mint(config));
    this.memo.set(key, minted);
    const ttl = minted.refreshAt - Date.now();
    if (ttl > 0) {
      await this.redis.set(key, this.box.encrypt(JSON.stringify(minted)), 'PX', ttl).catch((err) => this.logger.warn(`token cache write failed: ${err.message}`));
    }
    this.logger.log(`minted an FCM access token for bot ${config.botId} (config version ${config.version})`);
    return minted;
  }

  private async readShared(key: string): Promise<CachedToken | null> {
    try {
      const sealed = await this.redis.get(key);
      return sealed ? (JSON.parse(this.box.decrypt(sealed)) as CachedToken) : null;
    } catch {
      return null; // Redis down or a key we cannot open: mint instead
    }
  }
}

/** The client e-mail too: a removed then re-saved config starts again at version 1, with another account. */
function cacheKey(target: RedisTarget, config: LoadedPushConfig): string {
  return fcmAccessTokenKey(target, config.botId, config.version, config.clientEmail);
}

interface CachedToken extends MintedToken {
  refreshAt: number;
}

/** Refreshed 5 minutes before expiry (at half its life for short-lived tokens). */
function withRefreshTime(t: MintedToken): CachedToken {
  const lifetime = t.expiresAt - Date.now();
  return { ...t, refreshAt: t.expiresAt - Math.min(MAX_REFRESH_MARGIN_MS, Math.max(0, lifetime / 2)) };
}

function usable(t: CachedToken): boolean {
  return Date.now() < t.refreshAt;
}
