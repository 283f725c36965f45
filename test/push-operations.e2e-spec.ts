import { NestFastifyApplication } from '@nestjs/platform-fastify';
import pg from 'pg';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { reencryptPushConfigs } from '@platform/database';
import { FcmSandbox, GoogleOAuthSandbox } from '@platform/sandbox';
import { createTestEnv, seedBotAdmin, seedCarouselBot } from '@platform/testing';

const KEY1 = `test1:${Buffer.alloc(32, 1).toString('base64')}`;
const KEY2 = `test2:${Buffer.alloc(32, 2).toString('base64')}`;

/** Running the push service: replicas, outages, health, key rotation. */
describe('push service operations', () => {
  const oauth = new GoogleOAuthSandbox();
  const fcm = new FcmSandbox({ verifyAccessToken: (t) => oauth.verifyAccessToken(t) });
  let env: Record<string, string>;
  let gateway: NestFastifyApplication;
  let url: string;
  let botId: string;
  let apiKey: string;
  const pushApps: NestFastifyApplication[] = [];

  const startPush = async (overrides: Record<string, string> = {}) => {
    const app = await createPushService({ ...env, ...overrides });
    pushApps.push(app);
    return app;
  };
  const stopPush = async () => {
    for (const app of pushApps.splice(0)) await app.close();
  };

  beforeAll(async () => {
    await oauth.listen();
    await fcm.listen();
    env = await createTestEnv({ FCM_API_BASE_URL: fcm.baseUrl, PUSH_ALLOW_INSECURE_TOKEN_URI: 'true', PUSH_SERVICE_HEALTH_PORT: '0', PUSH_RPC_TIMEOUT_MS: '3000' });
    gateway = await createGateway(env);
    url = await listenGateway(gateway);
    const seed = await seedCarouselBot(gateway);
    botId = seed.botId;
    apiKey = seed.apiKey;
  });

  afterAll(async () => {
    await stopPush();
    await gateway?.close();
    await fcm.close();
    await oauth.close();
  });

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${url}/v1/bots/${botId}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function sendAndWait(title: string) {
    const res = await api('POST', '/notifications', { all: true, title, body: 'b' });
    const answer = await res.json();
    expect(res.status).toBe(202);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const s = await (await api('GET', `/notifications/${answer.notificationId}`)).json();
      if ((s.status === 'completed' || s.status === 'failed') && s.pending === 0) return s;
      if (Date.now() > deadline) throw new Error(`stuck: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query<T>(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  it('answers 503 at once, not hanging, while no push service runs', async () => {
    const started = Date.now();
    const res = await api('POST', '/devices', { userId: 'u', token: 't', platform: 'android' });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: 'The push service is not running; nothing was done. Retry later.', status: 'error' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('boots, connects and reports health on its own port', async () => {
    const push = await startPush();
    const health = await fetch(`${await push.getUrl()}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', info: { postgres: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('with two replicas, each request is carried out once and answered once', async () => {
    await startPush();
    expect(pushApps).toHaveLength(2);
    const admin = await seedBotAdmin(gateway, botId, 'admin');
    const save = await fetch(`${url}/api/data/vault/saveBotConfig?bot=${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': admin.accessToken },
      body: JSON.stringify({ notification: { firebaseConfig: { serviceAccount: oauth.createServiceAccount('demo-ops') } } }),
    });
    expect(save.status).toBe(200);
    const [{ version }] = await sql<{ version: number }>('SELECT version FROM push_configs WHERE bot_id = $1', [botId]);
    expect(version).toBe(1);

    for (let i = 0; i < 5; i++) expect((await api('POST', '/devices', { userId: `u${i}`, token: `tok-ops-${i}`, platform: 'android' })).status).toBe(201);
    const before = fcm.messages.length;
    const final = await sendAndWait('replicas');
    expect(final).toMatchObject({ status: 'completed', total: 5, sent: 5 });
    const [{ n }] = await sql<{ n: string }>("SELECT count(*) AS n FROM push_notifications WHERE title = 'replicas'");
    expect(Number(n)).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(fcm.messages.length - before).toBe(5);
  });

  it('rotates the encryption key: re-encrypts under the new key and keeps sending with the old key removed', async () => {
    await stopPush();
    const rotating = await startPush({ ENCRYPTION_KEYS: `${KEY1},${KEY2}`, ENCRYPTION_ACTIVE_KEY_ID: 'test2' });
    expect(await reencryptPushConfigs(rotating)).toEqual({ reencrypted: 1, changedMeanwhile: 0, activeKeyId: 'test2' });
    expect(await reencryptPushConfigs(rotating)).toEqual({ reencrypted: 0, changedMeanwhile: 0, activeKeyId: 'test2' });
    await stopPush();
    const [row] = await sql<{ key_id: string; credentials_encrypted: string }>('SELECT key_id, credentials_encrypted FROM push_configs WHERE bot_id = $1', [botId]);
    expect(row.key_id).toBe('test2');
    expect(row.credentials_encrypted).toMatch(/^v1\.test2\./);

    await startPush({ ENCRYPTION_KEYS: KEY2 });
    expect(await sendAndWait('after rotation')).toMatchObject({ status: 'completed', total: 5, sent: 5, failed: 0 });
  });

  it('answers 503 again once the push service stopped', async () => {
    await stopPush();
    await new Promise((r) => setTimeout(r, 1100)); // the gateway trusts a seen listener for 1 s
    const started = Date.now();
    const res = await api('GET', '/notifications/3b0f3c1e-0000-4000-8000-000000000000');
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
