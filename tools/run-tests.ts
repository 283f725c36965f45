import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '@platform/database';
import { startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { TEMPLATE_DB } from '@platform/testing';

/**
 * Runs Jest against real servers: starts Postgres and Redis on loopback (unless TEST_DATABASE_URL /
 * TEST_REDIS_URL name running ones; with TEST_STACK=containers, as containers through testcontainers), migrates a template database that each test file clones, runs
 * Jest with the given arguments, and stops what it started, whatever the outcome.
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
    let redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl) {
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
    process.stdout.write(`test servers: postgres ${adminUrl.replace(/:[^:@]*@/, ':***@')}, redis ${redisUrl}\n`);

    const args = process.argv.slice(2);
    const env = { ...process.env, TEST_DATABASE_URL: adminUrl, TEST_REDIS_URL: redisUrl };
    const code = await runNode(['--experimental-vm-modules', '--no-warnings', 'node_modules/jest/bin/jest.js', ...args], env);
    // Then the SDK package's own suite (its own CommonJS Jest config), unless Jest was given test paths to run.
    if (interrupted || args.some((a) => !a.startsWith('-'))) return code;
    const sdkCode = await runNode(['node_modules/jest/bin/jest.js', '--config', 'libs/sdk-core/jest.config.js'], process.env);
    return code !== 0 ? code : sdkCode;
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
