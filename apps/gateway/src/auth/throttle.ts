import { HttpException, HttpStatus, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RateCheck, RateLimitExceededError, RateLimiter, RateLimiterUnavailableError } from '@platform/auth';

/** Charges the limits of a platform route: 429 + Retry-After when over, 503 when Redis cannot count. */
export async function throttle(limiter: RateLimiter, reply: FastifyReply, checks: RateCheck[]): Promise<void> {
  try {
    await limiter.consume(checks);
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
