import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '@platform/database';
import { startLocalPostgres, startLocalRedis, startLocalRedisCluster } from '@platform/local-infra';
import { TEMPLATE_DB } from '@platform/testing';

/**
 * The suites that also run against a Redis Cluster after the whole suite's run on one Redis: the
 * trigger (with its quota, Idempotency-Key and group commit), dispatch (a built worker process too)
 * and the pacer's scripts, push, SDK events, auth and the console's live feed. Not among them: the
 * trigger's outage suite (it stops a Redis of its own, which is one server) and the failover suite,
 * which kills nodes of a cluster of its own under load (`npm run test:failover`).
 */
const CLUSTER_SUITES = [
  'test/carousel-trigger.e2e-spec.ts',
  'test/carousel-trigger-validation.e2e-spec.ts',
  'test/carousel-trigger-quota.e2e-spec.ts',
  'test/carousel-trigger-idempotency.e2e-spec.ts',
  'test/carousel-trigger-batching.e2e-spec.ts',
  'test/carousel-throttling.e2e-spec.ts',
  'test/carousel-dispatch-recovery.e2e-spec.ts',
  'test/whatsapp-sender-pacer.e2e-spec.ts',
  'test/push-notifications.e2e-spec.ts',
  'test/push-single-delivery.e2e-spec.ts',
  'test/sdk-event-backlog.e2e-spec.ts',
  'test/sdk-events-replicas.e2e-spec.ts',
  'test/auth-api-keys.e2e-spec.ts',
  'test/console-message-stream.e2e-spec.ts',
];

/**
 * Runs Jest against real servers: starts Postgres and Redis on loopback (unless TEST_DATABASE_URL /
 * TEST_REDIS_URL name running ones; with TEST_STACK=containers, as containers through testcontainers), migrates a template database that each test file clones, runs
 * Jest with the given arguments, and stops what it started, whatever the outcome.
 *
 * With TEST_REDIS=cluster the apps under test use a 6-node Redis Cluster (3 masters, 3 replicas) that
 * it starts (unless TEST_REDIS_CLUSTER_NODES names one), each test file under a key prefix of its own.
 * A run of the whole suite (no test paths) then also runs CLUSTER_SUITES on a cluster.
 */
async function main(): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'platform-test-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    if (process.env.TEST_STACK === 'containers') {
      const { startContainerStack } = await import('./test-stack-containers.js');
      const stack = await startContainerStack();
      stops.push(() => stack.stop());
      process.env.TEST_DATABASE_URL ??= stack.postgresUrl;
      process.env.TEST_REDIS_URL ??= stack.redisUrl;
    }
    let adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) {
      const server = await startLocalPostgres({ dataDir: join(root, 'pg') });
      stops.push(() => server.stop());
      adminUrl = server.url;
    }
    const onCluster = process.env.TEST_REDIS === 'cluster';
    const startCluster = async () => {
      if (process.env.TEST_REDIS_CLUSTER_NODES) return process.env.TEST_REDIS_CLUSTER_NODES;
      const cluster = await startLocalRedisCluster({ dataDir: join(root, 'redis-cluster') });
      stops.push(() => cluster.stop());
      return cluster.seeds;
    };
    let redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl && !onCluster) {
      const redis = await startLocalRedis({ dataDir: join(root, 'redis') });
      stops.push(() => redis.stop());
      redisUrl = redis.url;
    }
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DB}"`);
    await client.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
    await client.end();
    await migrate(adminUrl.replace(/\/[^/]*$/, `/${TEMPLATE_DB}`), join(process.cwd(), 'prisma', 'migrations'));
    const clusterSeeds = onCluster ? await startCluster() : undefined;
    process.stdout.write(`test servers: postgres ${adminUrl.replace(/:[^:@]*@/, ':***@')}, redis ${clusterSeeds ? `cluster ${clusterSeeds}` : redisUrl}\n`);

    const args = process.argv.slice(2);
    const jest = (jestArgs: string[], env: NodeJS.ProcessEnv) => runNode(['--experimental-vm-modules', '--no-warnings', 'node_modules/jest/bin/jest.js', ...jestArgs], env);
    const env = { ...process.env, TEST_DATABASE_URL: adminUrl, TEST_REDIS_URL: redisUrl, TEST_REDIS_CLUSTER_NODES: clusterSeeds };
    const code = await jest(args, env);
    // Then, unless Jest was given test paths to run: the SDK packages' own suites (their own CommonJS Jest
    // configs, jest.sdk.config.js), and the cluster suites on a Redis Cluster.
    if (interrupted || onCluster || args.some((a) => !a.startsWith('-'))) return code;
    const sdkCode = await runNode(['node_modules/jest/bin/jest.js', '--config', 'jest.sdk.config.js'], process.env);
    if (interrupted) return code || sdkCode;
    const seeds = await startCluster();
    process.stdout.write(`cluster suites on a Redis Cluster (${seeds})\n`);
    const clusterCode = await jest([...args, ...CLUSTER_SUITES], { ...env, TEST_REDIS: 'cluster', TEST_REDIS_URL: undefined, TEST_REDIS_CLUSTER_NODES: seeds });
    return code || sdkCode || clusterCode;
  } finally {
    for (const stop of stops.reverse()) await stop().catch((err) => process.stderr.write(`stopping a test server: ${err}\n`));
    rmSync(root, { recursive: true, force: true });
  }
}

let interrupted = false;

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals) => {
    interrupted = true;
    child.kill(signal);
  };
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise<number>((resolve) =>
    child.on('exit', (code) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? 1);
    }),
  );
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`test run failed before Jest started: ${err instanceof Error ? err.stack : err}\n`);
    process.exit(1);
  },
);
