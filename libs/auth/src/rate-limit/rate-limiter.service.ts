import { Inject, Injectable } from '@nestjs/common';
import { AuthEnv, CoreEnv } from '@platform/config';
import { sha256Hex } from '@platform/crypto';
import { REQUEST_REDIS, type RedisClient, rateLimitKey, withTimeout } from '@platform/queue';
import { RateLimitExceededError } from './rate-limit-exceeded.error.js';
import { RateLimiterUnavailableError } from './rate-limiter-unavailable.error.js';

/** One counter to charge: `bucket` names the limit (e.g. "login-ip"), `id` whom it counts (hashed before use). */
export interface RateCheck {
  bucket: string;
  id: string;
  limit: number;
}

// Fixed window: the first hit of a window starts its expiry; returns [count, ms left].
const SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

// Reads a window's count without charging it.
const PEEK = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
return {c, redis.call('PTTL', KEYS[1])}`;

/** Fixed-window counters in Redis, shared by every replica; PEEK's script takes the window argument unused. */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly env: AuthEnv,
    private readonly core: CoreEnv,
  ) {}

  /** Charges every check; throws RateLimitExceededError when any is over its limit. */
  async consume(checks: RateCheck[]): Promise<void> {
    const results = await this.run(SCRIPT, checks);
    this.enforce(checks, results, (count, limit) => count > limit);
  }

  /** Throws RateLimitExceededError when a check has no attempt left, without charging (for limits on failures only). */
  async assertUnder(checks: RateCheck[]): Promise<void> {
    const results = await this.run(PEEK, checks);
    this.enforce(checks, results, (count, limit) => count >= limit);
  }

  /** Charges a failure (e.g. a wrong password) to the checks, whatever their state. */
  async recordFailure(checks: RateCheck[]): Promise<void> {
    await this.run(SCRIPT, checks);
  }

  private async run(script: string, checks: RateCheck[]): Promise<Array<[number, number]>> {
    const windowMs = this.env.AUTH_RATE_WINDOW_SECONDS * 1000;
    try {
      return await withTimeout(
        Promise.all(checks.map((c) => this.redis.eval(script, 1, rateLimitKey(this.core, c.bucket, sha256Hex(c.id)), windowMs) as Promise<[number, number]>)),
        this.core.REDIS_COMMAND_TIMEOUT_MS,
        'rate limiting',
      );
    } catch (err) {
      throw new RateLimiterUnavailableError(err);
    }
  }

  private enforce(checks: RateCheck[], results: Array<[number, number]>, over: (count: number, limit: number) => boolean) {
    let retryAfterMs = 0;
    results.forEach(([count, ttl], i) => {
      if (over(count, checks[i].limit)) retryAfterMs = Math.max(retryAfterMs, ttl > 0 ? ttl : 1000);
    });
    if (retryAfterMs > 0) throw new RateLimitExceededError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }
}
