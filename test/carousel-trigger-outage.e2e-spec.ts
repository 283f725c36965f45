import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { PrismaService, migrate } from '@platform/database';
import { LocalPostgres, LocalRedis, startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { SeededBot, carouselBody, createTestEnv, seedCarouselBot } from '@platform/testing';

/** Outages get a quick 500 with a clear body, lose nothing silently, and heal without a restart. */
describe('carousel trigger when Redis or Postgres is down', () => {
  const dir = mkdtempSync(join(tmpdir(), 'outage-'));
  let redis: LocalRedis;
  let pg: LocalPostgres;
  let gateway: NestFastifyApplication;
  let url: string;
  let seed: SeededBot;

  beforeAll(async () => {
    redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
    pg = await startLocalPostgres({ dataDir: join(dir, 'pg'), persistent: true });
    const databaseUrl = await pg.createDatabase('outage');
    await migrate(databaseUrl, join(process.cwd(), 'prisma', 'migrations'));
    gateway = await createGateway(await createTestEnv({ REDIS_URL: redis.url, DATABASE_URL: databaseUrl }));
    url = await listenGateway(gateway);
    seed = await seedCarouselBot(gateway);
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await redis?.stop();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const trigger = () =>
    fetch(`${url}/api/engagements/notifications/v2/push?bot=${seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': seed.apiKey },
      body: JSON.stringify(carouselBody(seed)),
    });

  async function timed(): Promise<{ status: number; body: any; ms: number }> {
    const start = Date.now();
    const res = await trigger();
    return { status: res.status, body: await res.json(), ms: Date.now() - start };
  }

  async function until(ok: () => Promise<boolean>, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error('condition not reached in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('Redis stopped: 500 within 2 s with a clear body, no message left behind; back: the next trigger succeeds', async () => {
    expect((await trigger()).status).toBe(200);
    const messagesBefore = await gateway.get(PrismaService).message.count();

    await redis.stop();
    for (let i = 0; i < 3; i++) {
      const r = await timed();
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ status: 'error', message: 'The message queue is unavailable; nothing was queued. Retry later.' });
      expect(r.ms).toBeLessThan(2000);
    }
    expect(await gateway.get(PrismaService).message.count()).toBe(messagesBefore);

    await redis.start();
    await until(async () => (await fetch(`${url}/health`)).status === 200);
    const r = await timed();
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
  }, 40_000);

  it('Postgres stopped: 500 within 2 s without internals; back: the next trigger succeeds', async () => {
    await pg.stop();
    for (let i = 0; i < 2; i++) {
      const r = await timed();
      expect(r.status).toBe(500);
      expect(r.body.status).toBe('error');
      expect(r.body.message).not.toMatch(/at |Error|prisma|ECONN/i);
      expect(r.ms).toBeLessThan(2000);
    }
    expect((await fetch(`${url}/health`)).status).toBe(503);

    await pg.start();
    await until(async () => (await trigger()).status === 200);
  }, 40_000);
});
