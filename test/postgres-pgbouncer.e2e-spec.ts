import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { PostgresPool } from '@platform/database';
import { LocalPgBouncer, freePort, startLocalPgBouncer } from '@platform/local-infra';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { SeededBot, carouselBody, createTestDatabase, seedBotAdmin, seedCarouselBot, triggerCarousel, waitForMessageStatus } from '@platform/testing';
import { PushSandboxes, botApi, saveServiceAccount, sqlRows, waitForNotification } from './push-support.js';

const databaseName = (url: string) => new URL(url).pathname.slice(1);

/**
 * Postgres behind Debian's PgBouncer in transaction mode, with fewer server connections than the apps'
 * pools hold: every transaction may land on another server connection.
 */
describe('Postgres behind PgBouncer (transaction pooling)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  let bouncer: LocalPgBouncer;

  beforeAll(async () => {
    bouncer = await startLocalPgBouncer({ dataDir: dir, serverUrl: process.env.TEST_DATABASE_URL!, poolMode: 'transaction', defaultPoolSize: 4 });
  });

  afterAll(async () => {
    await bouncer?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('named prepared statements', () => {
    /**
     * Client A prepares a named statement on the server connection it is lent (S1). B opens a transaction,
     * which pins S1 (PgBouncer lends the most recently used idle connection). A's next run of the name
     * goes to another server connection, where it was never prepared.
     */
    async function runNamedTwiceWhileS1IsPinned(preparedStatements: boolean): Promise<unknown> {
      const pool = new PostgresPool({ connectionString: bouncer.databaseUrl(databaseName(await createTestDatabase())), max: 2, preparedStatements });
      const a = await pool.connect();
      const b = await pool.connect();
      const named = { name: 'pooler-probe', text: 'SELECT $1::int + 1 AS n', values: [1] };
      try {
        await a.query(named);
        await b.query('BEGIN');
        return (await a.query(named)).rows;
      } catch (err) {
        return err;
      } finally {
        await b.query('ROLLBACK').catch(() => undefined);
        a.release();
        b.release();
        await pool.end();
      }
    }

    it('break in transaction mode (PgBouncer < 1.21): the server connection has never seen the name', async () => {
      const outcome = await runNamedTwiceWhileS1IsPinned(true);
      expect(outcome).toBeInstanceOf(pg.DatabaseError);
      expect((outcome as pg.DatabaseError).code).toBe('26000'); // invalid_sql_statement_name
    });

    it('work with DATABASE_PREPARED_STATEMENTS=false: the pool sends them unnamed', async () => {
      expect(await runNamedTwiceWhileS1IsPinned(false)).toEqual([{ n: 2 }]);
    });
  });

  describe('the apps through the pooler', () => {
    const cloud = new WhatsAppCloudSandbox();
    const sandboxes = new PushSandboxes();
    let gateway: NestFastifyApplication;
    let worker: NestFastifyApplication;
    let push: NestFastifyApplication;
    let url: string;
    let seed: SeededBot;
    let directUrl: string;

    beforeAll(async () => {
      const cloudUrl = await cloud.listen();
      await sandboxes.listen();
      const env = await sandboxes.env({
        WHATSAPP_API_BASE_URL: `${cloudUrl}/v21.0`,
        WHATSAPP_BACKOFF_MS: '20',
        WORKER_HEALTH_PORT: '0',
        FCM_BACKOFF_MS: '20',
        PUSH_BATCH_SIZE: '2',
        DATABASE_PREPARED_STATEMENTS: 'false',
        // Few client connections per app (3 apps × 3 over PgBouncer's 4 server connections); fewer to
        // open at once also keeps a loaded machine within the apps' 1 s connection timeout.
        DATABASE_POOL_SIZE: '3',
      });
      directUrl = env.DATABASE_URL;
      env.DATABASE_URL = bouncer.databaseUrl(databaseName(directUrl));
      // PgBouncer learns a database it has not served yet from its first server login, which on a
      // loaded machine can outlast the apps' 1 s connection timeout.
      await sqlRows(env.DATABASE_URL, 'SELECT 1');
      gateway = await createGateway(env);
      url = await listenGateway(gateway);
      worker = await createChannelWorker(env);
      push = await createPushService(env);
      seed = await seedCarouselBot(gateway);
    });

    afterAll(async () => {
      await worker?.close();
      await push?.close();
      await gateway?.close();
      await sandboxes.close();
      await cloud.close();
    });

    it('answers /health through the pooler', async () => {
      expect((await fetch(`${url}/health`)).status).toBe(200);
    });

    it('triggers 40 carousels at once: every one is recorded, sent once and ends sent', async () => {
      const before = cloud.messages.length;
      const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => triggerCarousel(url, seed, carouselBody(seed, 3, `+91987654${String(3210 + i)}`))));
      const finals = await Promise.all(ids.map((id) => waitForMessageStatus(url, seed, id, ['sent', 'failed'], 60_000)));
      expect(finals.map((f) => f.status)).toEqual(ids.map(() => 'sent'));
      expect(cloud.messages.length - before).toBe(40);
      const rows = await sqlRows<{ n: number }>(directUrl, `SELECT count(*)::int AS n FROM messages WHERE id = ANY($1::uuid[]) AND status = 'sent' AND provider_message_id IS NOT NULL`, [ids]);
      expect(rows).toEqual([{ n: 40 }]);
    }, 120_000);

    it('saves push credentials and fans a notification out to every device', async () => {
      const { oauth, fcm } = sandboxes;
      const admin = await seedBotAdmin(gateway, seed.botId, 'admin');
      expect((await saveServiceAccount(url, seed.botId, admin.accessToken, oauth.createServiceAccount('pooled-push'))).status).toBe(200);
      const api = botApi(url, seed.botId, seed.apiKey);
      for (let i = 0; i < 5; i++) expect((await api('POST', '/devices', { userId: `u${i}`, token: `tok-pooled-${i}`, platform: 'android' })).status).toBe(201);
      const res = await api('POST', '/notifications', { userIds: [0, 1, 2, 3, 4].map((i) => `u${i}`), title: 'Through the pooler', body: 'hi' });
      expect(res.status).toBe(202);
      const final = await waitForNotification(api, (await res.json()).notificationId);
      expect(final).toMatchObject({ status: 'completed', total: 5, sent: 5, failed: 0, pending: 0 });
      expect([0, 1, 2, 3, 4].map((i) => fcm.received(`tok-pooled-${i}`).length)).toEqual([1, 1, 1, 1, 1]);
    });
  });

  describe('migrations', () => {
    /** `npm run migrate` as a process (built by `npm test`), with the environment given. */
    function runMigrate(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
      const child = spawn(process.execPath, ['dist/tools/migrate.js'], { env: { PATH: process.env.PATH!, ...env } });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
    }

    it('go to DATABASE_DIRECT_URL when it is set, not to the pooled DATABASE_URL', async () => {
      const admin = process.env.TEST_DATABASE_URL!;
      const name = `mig_direct_${process.pid}_${Date.now()}`;
      await sqlRows(admin, `CREATE DATABASE "${name}"`);
      const direct = admin.replace(/\/[^/]*$/, `/${name}`);
      const nowhere = `postgresql://postgres:postgres@127.0.0.1:${await freePort()}/${name}`;
      const result = await runMigrate({ DATABASE_URL: nowhere, DATABASE_DIRECT_URL: direct });
      expect(result).toMatchObject({ code: 0, output: expect.stringMatching(/applied \d+ migration\(s\)/) });
      const [{ n }] = await sqlRows<{ n: number }>(direct, 'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL');
      expect(n).toBeGreaterThan(0);
    });
  });
});
