import { Redis, RedisOptions, ReplyError } from 'ioredis';
import { RedisUnavailableError } from './redis-unavailable.error.js';

/**
 * Connection for request paths (producers, caches): commands fail at once while Redis is down instead
 * of queueing in memory, so a request can be answered 500 quickly; reconnection happens by itself.
 */
export function createRequestRedis(url: string, name: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...extra,
  });
}

/** Connection for BullMQ workers: blocking commands, retried forever (BullMQ requires maxRetriesPerRequest null). */
export function createWorkerRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}

/**
 * Resolves with `promise`, a command (or commands) on one of our Redis connections, bounded to `ms`, so
 * no request waits on Redis longer than that. An error answer of Redis (ReplyError: Redis answered)
 * passes through; any other failure, or no answer in `ms`, rejects with RedisUnavailableError.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError(`${what} timed out after ${ms} ms`)), ms);
  });
  const answer = promise.catch((err: unknown) => {
    if (err instanceof ReplyError || err instanceof RedisUnavailableError) throw err;
    throw new RedisUnavailableError(`${what} failed: ${(err as Error)?.message ?? err}`, err);
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}
