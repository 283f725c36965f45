import { HttpException, HttpStatus, InternalServerErrorException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PlatformEnv } from '@platform/config';
import { RateLimitExceededError, RateLimiter, RateLimiterUnavailableError } from '@platform/auth';

/**
 * The per-IP limit of calls an app makes without an API key (SDK_RATE_LIMIT_PER_IP): 429 with
 * Retry-After past it; 500 when Redis cannot be asked, as every SDK route answers a Redis outage.
 */
export async function throttleAppCaller(limiter: RateLimiter, env: PlatformEnv, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  try {
    await limiter.consume([{ bucket: 'sdk-ip', id: req.ip, limit: env.SDK_RATE_LIMIT_PER_IP }]);
  } catch (err) {
    if (err instanceof RateLimitExceededError) {
      reply.header('retry-after', String(err.retryAfterSeconds));
      throw new HttpException(`Too many requests from this address; retry in ${err.retryAfterSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    if (err instanceof RateLimiterUnavailableError) {
      reply.header('retry-after', '5');
      throw new InternalServerErrorException('The message queue is unavailable; nothing was done. Retry later.');
    }
    throw err;
  }
}
