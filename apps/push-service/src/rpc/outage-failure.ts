import type { PushFailure } from '@platform/contracts';
import { DatabaseUnavailableError } from '@platform/database';
import { RedisUnavailableError } from '@platform/queue';

/**
 * What the gateway is told when a request's handler threw: which outage (Postgres or Redis) it was,
 * or an internal failure. The connection owners raise the typed outage errors (libs/database's pool,
 * libs/queue's withTimeout); this is the only place the push service classifies its requests' errors.
 */
export function outageFailure(err: unknown): PushFailure {
  if (err instanceof DatabaseUnavailableError) return { kind: 'unavailable', message: 'The database is unavailable; nothing was done. Retry later.' };
  if (err instanceof RedisUnavailableError) return { kind: 'unavailable', message: 'The push service cannot reach Redis; nothing was done. Retry later.' };
  return { kind: 'failed', message: 'The push service failed to handle the request' };
}
