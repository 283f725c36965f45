import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RateCheck, RateLimitExceededError, RateLimiter, RateLimiterUnavailableError } from '@platform/auth';

export interface ThrottleOptions {
  /** `requests` charges this request; `failures` only checks a limit that failures are charged to. */
  mode?: 'requests' | 'failures';
  /** Status when Redis cannot count: 503 for the auth routes, 500 where the route's contract says so. */
  outageStatus?: 500 | 503;
}

/** Applies limits to a platform route: 429 + Retry-After when over, `outageStatus` when Redis cannot count. */
export async function throttle(limiter: RateLimiter, reply: FastifyReply, checks: RateCheck[], { mode = 'requests', outageStatus = 503 }: ThrottleOptions = {}): Promise<void> {
  try {
    await (mode === 'requests' ? limiter.consume(checks) : limiter.assertUnder(checks));
  } catch (err) {
    if (err instanceof RateLimitExceededError) {
      reply.header('retry-after', String(err.retryAfterSeconds));
      throw new HttpException(`Too many attempts; retry in ${err.retryAfterSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    if (err instanceof RateLimiterUnavailableError) {
      reply.header('retry-after', '5');
      throw new HttpException(err.message, outageStatus);
    }
    throw err;
  }
}
