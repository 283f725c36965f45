import { Cluster, Redis, ReplyError } from 'ioredis';
import { bullPrefix, connectRedis, parseClusterNodes, redisKey, withTimeout } from './redis-connections.js';
import { RedisUnavailableError } from './redis-unavailable.error.js';

describe('Redis connection settings', () => {
  const single = { REDIS_URL: 'redis://127.0.0.1:6379' };
  const cluster = { REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001', REDIS_KEY_PREFIX: 't1:' };

  it("keeps BullMQ's usual prefix on one Redis and gives each queue a hash tag of its own on a cluster", () => {
    expect(bullPrefix(single, 'carousel-dispatch')).toBe('bull');
    expect(bullPrefix({ ...single, REDIS_KEY_PREFIX: 'a:' }, 'carousel-dispatch')).toBe('a:bull');
    expect(bullPrefix(cluster, 'carousel-dispatch')).toBe('{t1:bull:carousel-dispatch}');
    expect(bullPrefix(cluster, 'push-fanout')).not.toBe(bullPrefix(cluster, 'carousel-dispatch'));
  });

  it('prefixes keys only when a prefix is set', () => {
    expect(redisKey(single, 'rl:x')).toBe('rl:x');
    expect(redisKey(cluster, 'rl:x')).toBe('t1:rl:x');
  });

  it('reads seed nodes, taking credentials and TLS from the first URL', () => {
    expect(parseClusterNodes('10.0.0.1:7000, rediss://user:p%40ss@redis.example:7001,[::1]:7002')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis.example', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      redisOptions: { username: 'user', password: 'p@ss', tls: {} },
    });
  });

  it('opens a Cluster client for a cluster and a Redis client for one server', () => {
    const a = connectRedis(cluster, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const b = connectRedis(single, { lazyConnect: true });
    try {
      expect(a).toBeInstanceOf(Cluster);
      expect((a as Cluster).options.enableOfflineQueue).toBe(false);
      expect((a as Cluster).options.redisOptions).toMatchObject({ maxRetriesPerRequest: 1 });
      expect(b).toBeInstanceOf(Redis);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it("treats a cluster's 'cannot serve now' answers as an outage, other error answers as answers", async () => {
    await expect(withTimeout(Promise.reject(new ReplyError('CLUSTERDOWN The cluster is down')), 100, 'x')).rejects.toBeInstanceOf(RedisUnavailableError);
    await expect(withTimeout(Promise.reject(new ReplyError('ERR wrong number of arguments')), 100, 'x')).rejects.toBeInstanceOf(ReplyError);
  });

  it('ends the disconnect of a cluster client that has lost every node connection, and of its duplicates', async () => {
    // Nothing listens on port 1: the client loses its only node and waits to reconnect, with an empty pool.
    const unreachable = { REDIS_CLUSTER_NODES: '127.0.0.1:1' };
    const a = connectRedis(unreachable, { retryStrategy: () => 60_000 }) as Cluster;
    const b = a.duplicate();
    a.on('error', () => undefined);
    b.on('error', () => undefined);
    for (const client of [a, b]) {
      await until(() => client.status === 'reconnecting');
      expect(client.nodes()).toHaveLength(0);
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      client.disconnect();
      await ended;
      expect(client.status).toBe('end');
    }
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
}
