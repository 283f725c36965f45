import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';
import { migrate } from '@platform/database';
import { freePort, startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { TEST_ENCRYPTION_KEYS, carouselBody, seedCarouselBot } from '@platform/testing';
import { CliModule } from '../apps/cli/src/cli.module.js';

/**
 * `npm run bench:carousel`: load on the carousel trigger of one gateway process (loopback only),
 * with Postgres and Redis (AOF, fsync always) started here. Prints requests/s and latency percentiles.
 */
async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-carousel-'));
  const pg = await startLocalPostgres({ dataDir: join(dir, 'pg') });
  const redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
  const port = await freePort();
  const env = {
    DATABASE_URL: await pg.createDatabase('bench'),
    REDIS_URL: redis.url,
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  const gateway = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.local/profiles'] : []), 'dist/apps/gateway/src/main.js'], { env: { ...process.env, ...env }, stdio: 'inherit' });
  try {
    await migrate(env.DATABASE_URL, join(process.cwd(), 'prisma', 'migrations'));
    const app = await NestFactory.createApplicationContext(CliModule.forRoot(env), { logger: ['error'] });
    const seed = await seedCarouselBot(app);
    await app.close();
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && !(await fetch(`${url}/health`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 100));

    const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
    const duration = Number(process.env.BENCH_SECONDS ?? 15);
    const result = await autocannon({
      url: `${url}/api/engagements/notifications/v2/push?bot=${seed.botId}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': seed.apiKey },
      body: JSON.stringify(carouselBody(seed)),
      connections,
      duration,
    });
    const queue = new Queue(QueueNames.carouselDispatch, { connection: { url: redis.url } });
    const queued = await queue.getWaitingCount();
    await queue.close();
    const non2xx = result.non2xx + result.errors + result.timeouts;
    process.stdout.write(
      [
        `carousel trigger, ${connections} connections, ${duration} s, one gateway process:`,
        `  requests/s  avg ${result.requests.average.toFixed(0)}  (total ${result.requests.total})`,
        `  latency ms  p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}  max ${result.latency.max}`,
        `  non-2xx/errors/timeouts ${non2xx}; jobs waiting in Redis ${queued}`,
        '',
      ].join('\n'),
    );
    if (non2xx > 0 || queued < result['2xx']) process.exitCode = 1; // every 2xx answer must have left a job behind
  } finally {
    gateway.kill('SIGTERM');
    await new Promise((r) => gateway.once('exit', r));
    await redis.stop();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
