import { PushRpcResult } from '@platform/contracts';
import { DatabaseUnavailableError } from '@platform/database';

type Failure = Extract<PushRpcResult<never>, { ok: false }>;

/** Node and Postgres codes of a connection that could not be made or broke. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
/** Prisma's codes for a database it cannot reach. */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017']);
const PRISMA_UNREACHABLE_ERRORS = new Set(['PrismaClientInitializationError', 'DriverAdapterError']);
const REDIS_ERRORS = new Set(['MaxRetriesPerRequestError']);

/**
 * What the gateway is told when a request's handler threw: which outage (Postgres or Redis) it was,
 * or an internal failure. Decided by error class, name and code along the cause chain, never by
 * message text; the only place the push service classifies errors of its requests.
 */
export function outageFailure(err: unknown): Failure {
  for (let e = err as { name?: string; code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof DatabaseUnavailableError || PRISMA_UNREACHABLE_ERRORS.has(e.name ?? '') || PRISMA_UNREACHABLE.has(String(e.code)) || CONNECTION_CODES.has(String(e.code))) {
      return { ok: false, status: 503, message: 'The database is unavailable; nothing was done. Retry later.' };
    }
    if (REDIS_ERRORS.has(e.name ?? '')) return { ok: false, status: 503, message: 'The push service cannot reach Redis; nothing was done. Retry later.' };
  }
  return { ok: false, status: 500, message: 'The push service failed to handle the request' };
}
