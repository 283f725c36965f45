import { Cluster } from 'ioredis';
import type { Redis } from 'ioredis';
import { RedisEvictionPolicyError } from './redis-eviction-policy.error.js';
import type { RedisClient } from './redis-connections.js';

export interface RedisStartupCheckLog {
  log(line: string): void;
  warn(line: string): void;
}

/** How long start-up waits for Redis before it gives up checking (the app then starts; requests answer 5xx until Redis answers). */
const READY_WAIT_MS = 5000;

/**
 * Start-up check of the Redis the app will queue into (on a cluster, every master): a maxmemory-policy
 * other than noeviction stops the app (RedisEvictionPolicyError) unless `allowEviction`, which only warns;
 * whether AOF is on is logged. Redis that cannot be reached in time, or that refuses CONFIG (managed
 * services often do), is logged as not checked and the app starts.
 */
export async function checkRedisAtStartup(redis: RedisClient, allowEviction: boolean, logger: RedisStartupCheckLog): Promise<void> {
  if (!(await ready(redis, READY_WAIT_MS))) {
    logger.warn(`Redis did not answer within ${READY_WAIT_MS} ms of start-up: its maxmemory-policy and persistence were not checked`);
    return;
  }
  const masters: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of masters) {
    const name = `${node.options.host ?? '?'}:${node.options.port ?? '?'}`;
    let settings: Record<string, string>;
    try {
      settings = await configGet(node, ['maxmemory-policy', 'appendonly', 'appendfsync']);
    } catch (err) {
      logger.warn(`Redis ${name} refused CONFIG GET (${(err as Error).message}): could not check that its maxmemory-policy is noeviction or whether AOF is on; make sure of both with your provider`);
      continue;
    }
    const policy = settings['maxmemory-policy'];
    if (policy !== undefined && policy !== 'noeviction') {
      if (!allowEviction) throw new RedisEvictionPolicyError(name, policy);
      logger.warn(`Redis ${name} has maxmemory-policy ${policy}: it may evict queued jobs under memory pressure (started anyway: REDIS_ALLOW_EVICTION=true)`);
    }
    if (settings.appendonly === 'yes') logger.log(`Redis ${name}: AOF on (appendfsync ${settings.appendfsync ?? '?'}), maxmemory-policy ${policy}`);
    else logger.warn(`Redis ${name}: AOF off: a job acknowledged shortly before a Redis crash can be lost (maxmemory-policy ${policy})`);
  }
}

async function configGet(node: Redis, names: string[]): Promise<Record<string, string>> {
  const reply = (await withBound(node.call('CONFIG', 'GET', ...names) as Promise<string[]>, 2000)) ?? [];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) out[reply[i]] = reply[i + 1];
  return out;
}

function withBound<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

function ready(redis: RedisClient, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    redis.on('ready', onReady);
  });
}
