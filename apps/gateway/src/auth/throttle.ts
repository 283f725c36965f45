import { HttpException, HttpStatus, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RateCheck, RateLimitExceededError, RateLimiter, RateLimiterUnavailableError } from '@platform/auth';

/**
 * Applies limits to a platform route: 429 + Retry-After when over, 503 when Redis cannot count.
 * `requests` charges this request; `failures` only checks a limit that failures are charged to.
 */
export async function throttle(limiter: RateLimiter, reply: FastifyReply, checks: RateCheck[], mode: 'requests' | 'failures' = 'requests'): Promise<void> {
  try {
    await (mode === 'requests' ? limiter.consume(checks) : limiter.assertUnder(checks));
  } catch (err) {
    if (err instanceof RateLimitExceededError) {
      reply.header('retry-after', String(err.retryAfterSeconds));
      throw new HttpException(`Too many attempts; retry in ${err.retryAfterSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    if (err instanceof RateLimiterUnavailableError) {
      reply.header('retry-after', '5');
      throw new ServiceUnavailableException(err.message);
    }
    throw err;
  }
}
