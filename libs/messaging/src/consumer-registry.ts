import type { Cluster, Redis } from 'ioredis';
import { messagingConsumersKey } from '@platform/queue';

/**
 * Redis sorted set of the consumers that are listening on a request queue, each scored with the
 * moment (Redis' own clock, so hosts' clocks need not agree) after which it counts as gone. A consumer
 * refreshes its entry every second and removes it when it stops; a process that dies stops counting
 * once its entry expires. Keys live in the Redis database of the connection, under the deployment's key
 * prefix, so deployments that share a Redis server (on other databases, or with other prefixes) never
 * count each other's consumers.
 */
export function consumersKey(queueName: string, keyPrefix = ''): string {
  return messagingConsumersKey({ REDIS_KEY_PREFIX: keyPrefix }, queueName);
}

/** Millisecond clock of the Redis server, inside a script. */
const NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

const HEARTBEAT = `${NOW}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

const COUNT = `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')`;

/** Marks `consumerId` as listening on `queueName` for the next `ttlMs`. */
export async function registerConsumer(redis: Redis | Cluster, queueName: string, consumerId: string, ttlMs: number, keyPrefix = ''): Promise<void> {
  await redis.eval(HEARTBEAT, 1, consumersKey(queueName, keyPrefix), consumerId, String(ttlMs));
}

/** Removes `consumerId` at once (a consumer that stops on purpose). */
export async function unregisterConsumer(redis: Redis | Cluster, queueName: string, consumerId: string, keyPrefix = ''): Promise<void> {
  await redis.zrem(consumersKey(queueName, keyPrefix), consumerId);
}

/** How many consumers listen on `queueName` now. */
export async function countConsumers(redis: Redis | Cluster, queueName: string, keyPrefix = ''): Promise<number> {
  return Number(await redis.eval(COUNT, 1, consumersKey(queueName, keyPrefix)));
}
