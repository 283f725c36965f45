import type { FastifyReply, FastifyRequest } from 'fastify';
import { SdkEnv } from '@platform/config';
import { RateLimiter } from '@platform/auth';
import { throttle } from '../auth/throttle.js';

/** The per-IP limit of calls an app makes without an API key; a Redis outage answers 500, as on every SDK route. */
export function throttleAppCaller(limiter: RateLimiter, env: SdkEnv, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  return throttle(limiter, reply, [{ bucket: 'sdk-ip', id: req.ip, limit: env.SDK_RATE_LIMIT_PER_IP }], { outageStatus: 500 });
}
