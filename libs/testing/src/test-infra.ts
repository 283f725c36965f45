import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

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

/** Environment for apps under test: fresh database and Redis db, test keys, quiet logs. */
export async function createTestEnv(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    DATABASE_URL: await createTestDatabase(),
    REDIS_URL: await createTestRedisUrl(),
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    OPENAPI_UI: 'false', // Swagger UI's static files need require(esm), which Jest on Node 20 lacks
    ...overrides,
  };
}
