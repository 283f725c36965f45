import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type RedisClient, type RedisTarget, bullPrefix, connectRedis } from '@platform/queue';

export const TEMPLATE_DB = 'platform_template';

/** A fixed test keyring (two keys, so rotation can be tested). Never used outside tests. */
export const TEST_ENCRYPTION_KEYS = `test1:${Buffer.alloc(32, 1).toString('base64')},test2:${Buffer.alloc(32, 2).toString('base64')}`;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run tests through jest (tools/run-tests.ts starts the servers)`);
  return value;
}

/** A fresh, migrated database for one test file (cloned from the template the global setup migrated). */
export async function createTestDatabase(): Promise<string> {
  const admin = required('TEST_DATABASE_URL');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DB}"`);
  } finally {
    await client.end();
  }
  return admin.replace(/\/[^/]*$/, `/${name}`);
}

/** A Redis URL on its own logical database, so queues of parallel test files never meet. */
export async function createTestRedisUrl(baseUrl = required('TEST_REDIS_URL')): Promise<string> {
  const redis = new Redis(baseUrl);
  try {
    const n = await redis.incr('platform-test:next-db');
    return `${baseUrl}/${(n % 1023) + 1}`;
  } finally {
    redis.disconnect();
  }
}

/** True when the tests run against a Redis Cluster (`TEST_REDIS=cluster`: tools/run-tests.ts started one). */
export function testRedisIsCluster(): boolean {
  return Boolean(process.env.TEST_REDIS_CLUSTER_NODES);
}

/**
 * The Redis settings of one test file: a logical database of its own on one Redis, or, on a cluster
 * (which has only database 0), a key prefix of its own, so queues of parallel test files never meet.
 */
export async function createTestRedisEnv(): Promise<Record<string, string>> {
  const seeds = process.env.TEST_REDIS_CLUSTER_NODES;
  if (!seeds) return { REDIS_URL: await createTestRedisUrl() };
  const redis = connectRedis({ REDIS_CLUSTER_NODES: seeds }, {});
  try {
    const n = await redis.incr('platform-test:next-prefix');
    return { REDIS_CLUSTER_NODES: seeds, REDIS_KEY_PREFIX: `t${n}:` };
  } finally {
    redis.disconnect();
  }
}

/** A connection to the Redis (or cluster) of a test env, for a test that looks into Redis itself. */
export function testRedis(env: RedisTarget, options: { maxRetriesPerRequest?: number | null } = {}): RedisClient {
  return connectRedis(env, options);
}

/** A BullMQ Queue of a test env's Redis under the apps' prefix for it; closing it closes its connection. */
export function testQueue<T = unknown>(name: string, env: RedisTarget): Queue<T> {
  const connection = connectRedis(env, { maxRetriesPerRequest: null });
  const queue = new Queue<T>(name, { connection, prefix: bullPrefix(env, name) });
  const close = queue.close.bind(queue);
  queue.close = async () => {
    await close();
    connection.disconnect();
  };
  return queue;
}

/**
 * The production defaults of the database timeouts, for a test that proves how fast an outage answers
 * (a frozen or stopped Postgres); every other test runs with the generous ones of createTestEnv.
 */
export const OUTAGE_DATABASE_TIMEOUTS = { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '1500' } as const;

/**
 * Environment for apps under test: fresh database and Redis db (or key prefix on a cluster), test keys,
 * quiet logs. A test that names its own Redis (`REDIS_URL` in `overrides`, one it stops or configures)
 * gets that one alone, on a cluster run too.
 * The database timeouts are generous: on a CI host shared with other jobs, a new Postgres connection
 * or a plain statement can take longer than the production defaults, which are tuned for fast outage
 * answers (tests of those pass OUTAGE_DATABASE_TIMEOUTS).
 */
export async function createTestEnv(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    DATABASE_URL: await createTestDatabase(),
    ...(overrides.REDIS_URL ? {} : await createTestRedisEnv()),
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    OPENAPI_UI: 'false', // Swagger UI's static files need require(esm), which Jest on Node 20 lacks
    DATABASE_CONNECT_TIMEOUT_MS: '15000',
    DATABASE_QUERY_TIMEOUT_MS: '15000',
    ...overrides,
  };
}
