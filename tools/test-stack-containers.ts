import { spawnSync } from 'node:child_process';

export interface ContainerStack {
  postgresUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** Builds the locally made images (tools/containers/) when an image this stack runs is missing. */
function ensureImage(image: string, script: string): void {
  if (spawnSync('docker', ['image', 'inspect', image], { stdio: 'ignore' }).status === 0) return;
  process.stdout.write(`${image} missing: running ${script}\n`);
  const r = spawnSync('bash', [script], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${script} failed; cannot start ${image}`);
}

/**
 * TEST_STACK=containers: Postgres and Redis for the test run as containers started through
 * testcontainers (TEST_POSTGRES_IMAGE / TEST_REDIS_IMAGE, by default the stand-ins that
 * tools/containers/ builds on a locally made base; an image present locally is not pulled).
 */
export async function startContainerStack(): Promise<ContainerStack> {
  // The reaper (ryuk) is an image from Docker Hub; the runner stops what it started itself.
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  const postgresImage = process.env.TEST_POSTGRES_IMAGE ?? 'platform-postgres:local';
  const redisImage = process.env.TEST_REDIS_IMAGE ?? 'platform-redis:local';
  if (!process.env.TEST_POSTGRES_IMAGE || !process.env.TEST_REDIS_IMAGE) {
    ensureImage('platform-node-base:local', 'tools/containers/make-base-images.sh');
    ensureImage(postgresImage, 'tools/containers/make-stand-in-images.sh');
    ensureImage(redisImage, 'tools/containers/make-stand-in-images.sh');
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const { RedisContainer } = await import('@testcontainers/redis');
  const [postgres, redis] = await Promise.all([
    new PostgreSqlContainer(postgresImage).withUsername('postgres').withPassword('postgres').withDatabase('postgres').start(),
    // Each test file takes its own logical database (libs/testing createTestRedisUrl); AOF as in production.
    new RedisContainer(redisImage).withCommand(['redis-server', '--databases', '1024', '--appendonly', 'yes', '--appendfsync', 'always']).start(),
  ]);
  return {
    postgresUrl: postgres.getConnectionUri(),
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    async stop() {
      await Promise.all([postgres.stop(), redis.stop()]);
    },
  };
}
