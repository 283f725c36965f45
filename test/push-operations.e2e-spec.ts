import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { SecretBox } from '@platform/crypto';
import { BotSecretRepository } from '@platform/database';
import { TestServiceAccount } from '@platform/sandbox';
import { seedBotAdmin } from '@platform/testing';
import { PushSandboxes, botApi, saveServiceAccount, sqlRows, waitForNotification } from './push-support.js';
import { useStack } from './e2e-stack.js';

const KEY1 = `test1:${Buffer.alloc(32, 1).toString('base64')}`;
const KEY2 = `test2:${Buffer.alloc(32, 2).toString('base64')}`;

/** Running the push service: replicas, outages, health, key rotation. */
describe('push service operations', () => {
  const sandboxes = new PushSandboxes();
  const { oauth, fcm } = sandboxes;
  const stack = useStack({ push: sandboxes, seed: true, env: { PUSH_RPC_TIMEOUT_MS: '3000' } });
  let botId: string;
  let apiKey: string;
  let account: TestServiceAccount;
  const pushApps: NestFastifyApplication[] = [];

  const startPush = async (overrides: Record<string, string> = {}) => {
    const app = await createPushService({ ...stack.env, ...overrides });
    pushApps.push(app);
    return app;
  };
  const stopPush = async () => {
    for (const app of pushApps.splice(0)) await app.close();
  };
  stack.defer(stopPush);

  beforeAll(() => {
    ({ botId, apiKey } = stack.seed);
  });

  const api = (method: string, path: string, body?: unknown) => botApi(stack.url, botId, apiKey)(method, path, body);

  async function sendAndWait(title: string) {
    const res = await api('POST', '/notifications', { all: true, title, body: 'b' });
    const answer = await res.json();
    expect(res.status).toBe(202);
    return waitForNotification(api, answer.notificationId, 10_000);
  }

  const sql = <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => sqlRows<T>(stack.env.DATABASE_URL, text, params);

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
    const admin = await seedBotAdmin(stack.gateway, botId, 'admin');
    const save = await saveServiceAccount(stack.url, botId, admin.accessToken, (account = oauth.createServiceAccount('demo-ops')));
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

  /** The built operator CLI as a process (what `npm run cli -- …` runs). */
  function cli(extraEnv: Record<string, string>, ...argv: string[]): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['dist/apps/cli/src/main.js', ...argv], { env: { ...process.env, ...stack.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.stderr.on('data', (d: Buffer) => (out += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
  }

  const sealed = async () => {
    const [push] = await sql<{ key_id: string; credentials_encrypted: string }>('SELECT key_id, credentials_encrypted FROM push_configs WHERE bot_id = $1', [botId]);
    const [sender] = await sql<{ access_token_encrypted: string }>('SELECT access_token_encrypted FROM channel_senders WHERE bot_id = $1', [botId]);
    const [callbacks] = await sql<{ secret_encrypted: string; previous_secret_encrypted: string }>('SELECT secret_encrypted, previous_secret_encrypted FROM callback_secrets WHERE bot_id = $1', [
      botId,
    ]);
    const [botSecret] = await sql<{ key_id: string; value_encrypted: string }>('SELECT key_id, value_encrypted FROM bot_secrets WHERE bot_id = $1', [botId]);
    return {
      keyId: push.key_id,
      botSecretKeyId: botSecret.key_id,
      values: [push.credentials_encrypted, sender.access_token_encrypted, callbacks.secret_encrypted, callbacks.previous_secret_encrypted, botSecret.value_encrypted],
    };
  };

  it('the CLI lists keys reencrypt and its alias push reencrypt', async () => {
    const help = await cli({}, 'help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^ {2}keys reencrypt {2}Re-encrypt every stored secret/m);
    expect(help.out).toMatch(/^ {2}push reencrypt {2}Same as keys reencrypt/m);
  });

  it('rotates the encryption key with the CLI: every stored secret is re-encrypted, sending works with the old key removed', async () => {
    // A secret of every kind, sealed under test1: the service account (saved above), the sender's access token (seeded), a webhook signing secret and the one it is rotating out, a hosted bot's secret.
    await stack.gateway.get(BotSecretRepository, { strict: false }).set(botId, 'CRM_TOKEN', 'crm-token-1');
    const urlEnv = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }; // localhost: no name resolves on these machines
    const webhook = await cli(urlEnv, 'webhook', 'set', '--bot', botId, '--url', 'https://localhost/hook');
    expect(webhook.code).toBe(0);
    const previousSecret = webhook.out.trim().split('\n').pop()!;
    const rotated = await cli(urlEnv, 'webhook', 'set', '--bot', botId, '--url', 'https://localhost/hook', '--rotate-secret');
    expect(rotated.code).toBe(0);
    const webhookSecret = rotated.out.trim().split('\n').pop()!;
    const before = await sealed();
    expect(before.keyId).toBe('test1');
    expect(before.botSecretKeyId).toBe('test1');
    for (const value of before.values) expect(value).toMatch(/^v1\.test1\./);
    await stopPush();

    // Without the old key nothing can be opened: reported, left alone, exit code 1.
    const blind = await cli({ ENCRYPTION_KEYS: KEY2 }, 'keys', 'reencrypt');
    expect(blind.code).toBe(1);
    expect(blind.out).toContain('Secret was encrypted under key "test1", which is not configured');
    expect(blind.out).toContain('still sealed under other keys (test1: 5): do not remove those keys yet');
    expect((await sealed()).values).toEqual(before.values);

    const rotating = { ENCRYPTION_KEYS: `${KEY1},${KEY2}`, ENCRYPTION_ACTIVE_KEY_ID: 'test2' };
    const run = await cli(rotating, 'keys', 'reencrypt');
    expect(run).toEqual({
      code: 0,
      out: [
        'stored secrets re-encrypted under key test2:',
        '  Firebase service accounts (push configs): 1',
        '  WhatsApp sender access tokens: 1',
        '  bot webhook signing secrets: 1',
        '  bot webhook signing secrets being rotated out: 1',
        '  hosted bot secrets (http nodes): 1',
        'nothing stored is sealed under another key: once every gateway, worker and push service runs with ENCRYPTION_ACTIVE_KEY_ID=test2, the other keys can be removed from ENCRYPTION_KEYS',
        '',
      ].join('\n'),
    });
    const again = await cli(rotating, 'push', 'reencrypt'); // the old name; a second run has nothing to do
    expect(again.code).toBe(0);
    expect(again.out).toContain(
      '  Firebase service accounts (push configs): 0\n  WhatsApp sender access tokens: 0\n  bot webhook signing secrets: 0\n  bot webhook signing secrets being rotated out: 0\n  hosted bot secrets (http nodes): 0\n',
    );

    const after = await sealed();
    expect(after.keyId).toBe('test2');
    expect(after.botSecretKeyId).toBe('test2');
    for (const value of after.values) expect(value).toMatch(/^v1\.test2\./);
    const onlyKey2 = new SecretBox(KEY2);
    const [serviceAccount, accessToken, secret, previous, botSecret] = after.values.map((v) => onlyKey2.decrypt(v));
    expect(JSON.parse(serviceAccount)).toMatchObject({ client_email: account.client_email, private_key: account.private_key });
    expect(accessToken).toBe(stack.seed.accessToken);
    expect(secret).toBe(webhookSecret);
    expect(previous).toBe(previousSecret);
    expect(botSecret).toBe('crm-token-1');

    await startPush({ ENCRYPTION_KEYS: KEY2 });
    expect(await sendAndWait('after rotation')).toMatchObject({ status: 'completed', total: 5, sent: 5, failed: 0 });
  }, 240_000);

  it('answers 503 again once the push service stopped', async () => {
    await stopPush();
    await new Promise((r) => setTimeout(r, 1100)); // the gateway trusts a seen listener for 1 s
    const started = Date.now();
    const res = await api('GET', '/notifications/3b0f3c1e-0000-4000-8000-000000000000');
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
