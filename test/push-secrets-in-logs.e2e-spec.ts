import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createGateway } from '../apps/gateway/src/create-gateway.js';
import { freePort } from '@platform/local-infra';
import { FcmErrors, FcmSandbox, GoogleOAuthSandbox, TestServiceAccount } from '@platform/sandbox';
import { createTestEnv, seedBotAdmin, seedCarouselBot } from '@platform/testing';

const PUSH_MAIN = 'dist/apps/push-service/src/main.js';
const GATEWAY_MAIN = 'dist/apps/gateway/src/main.js';

/**
 * The built gateway and push service run as real processes (as docker-compose runs them) with
 * LOG_LEVEL=trace; every request path that touches a service account runs; then their whole output
 * is searched for private-key material and access tokens.
 */
describe('push: no private key or access token in any answer or log line (built processes)', () => {
  const oauth = new GoogleOAuthSandbox();
  const fcm = new FcmSandbox({ verifyAccessToken: (t) => oauth.verifyAccessToken(t) });
  const logDir = mkdtempSync(join(tmpdir(), 'push-logs-'));
  const logFiles: string[] = [];
  const answers: string[] = [];
  const children: ChildProcess[] = [];
  let seeder: NestFastifyApplication;
  let url: string;
  let pushHealth: string;
  let account: TestServiceAccount;
  let botId: string;
  let apiKey: string;
  let adminToken: string;

  /** Output goes to a file, not a pipe: a pipe nobody drains fast enough would stall the process's sync log writes. */
  function start(main: string, env: Record<string, string>): ChildProcess {
    const file = join(logDir, `${children.length}.log`);
    const fd = openSync(file, 'w');
    const child = spawn(process.execPath, [main], { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    logFiles.push(file);
    children.push(child);
    return child;
  }
  const capturedLogs = () => logFiles.map((f) => readFileSync(f, 'utf8')).join('');

  async function waitHealthy(healthUrl: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await fetch(healthUrl).catch(() => null);
      if (res?.status === 200) return;
      if (Date.now() > deadline) throw new Error(`${healthUrl} not healthy; output:\n${capturedLogs()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    expect(existsSync(PUSH_MAIN)).toBe(true); // run `npm run build` first
    await oauth.listen();
    await fcm.listen();
    const [port, pushPort] = [await freePort(), await freePort()];
    const env = await createTestEnv({
      FCM_API_BASE_URL: fcm.baseUrl,
      PUSH_ALLOW_INSECURE_TOKEN_URI: 'true',
      PUSH_JOB_BACKOFF_MS: '50',
      FCM_BACKOFF_MS: '20',
    });
    seeder = await createGateway(env);
    const seed = await seedCarouselBot(seeder);
    botId = seed.botId;
    apiKey = seed.apiKey;
    adminToken = (await seedBotAdmin(seeder, botId, 'admin')).accessToken;
    account = oauth.createServiceAccount('demo-logs');

    const processEnv = { ...env, LOG_LEVEL: 'trace', PORT: String(port), PUSH_SERVICE_HEALTH_PORT: String(pushPort) };
    start(PUSH_MAIN, processEnv);
    start(GATEWAY_MAIN, processEnv);
    url = `http://127.0.0.1:${port}`;
    pushHealth = `http://127.0.0.1:${pushPort}/health`;
    await waitHealthy(pushHealth);
    await waitHealthy(`${url}/health`);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(children.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => (c.once('exit', r), c.kill('SIGTERM'))))));
    if (process.env.PUSH_LOG_DUMP) writeFileSync(process.env.PUSH_LOG_DUMP, capturedLogs());
    rmSync(logDir, { recursive: true, force: true });
    await seeder?.close();
    await fcm.close();
    await oauth.close();
  });

  async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    answers.push(text);
    return { status: res.status, text };
  }
  const admin = { 'x-auth-token': '' };
  const key = () => ({ authorization: `Bearer ${apiKey}` });
  const save = (serviceAccount: unknown) =>
    call('POST', `/api/data/vault/saveBotConfig?bot=${botId}`, { ...admin, 'x-auth-token': adminToken }, { notification: { firebaseConfig: { serviceAccount } } });

  it('runs every path that handles the service account, successes and failures', async () => {
    expect((await save(account)).status).toBe(200);
    expect((await save({ ...account, token_uri: 'http://10.1.2.3/token' })).status).toBe(400);
    expect((await save({ ...account, type: 'user', private_key: account.private_key.replace(/A/g, 'B') })).status).toBe(400);
    expect((await call('POST', `/api/data/vault/saveBotConfig?bot=${botId}`, { 'x-auth-token': 'wrong' }, { notification: { firebaseConfig: { serviceAccount: account } } })).status).toBe(401);
    expect(
      (await call('POST', `/api/data/vault/saveBotConfig?bot=${botId}`, { 'x-auth-token': adminToken }, `{"notification":{"firebaseConfig":{"serviceAccount":${JSON.stringify(account)}`)).status,
    ).toBe(400);
    expect((await call('GET', `/api/data/vault/botConfig?bot=${botId}`, { 'x-auth-token': adminToken })).status).toBe(200);

    for (const [user, token] of [
      ['a', 'tok-log-a'],
      ['b', 'tok-log-gone'],
    ]) {
      expect((await call('POST', `/v1/bots/${botId}/devices`, key(), { userId: user, token, platform: 'android' })).status).toBe(201);
    }
    fcm.always('tok-log-gone', FcmErrors.unregistered);
    fcm.script('tok-log-a', FcmErrors.unavailable);
    const sent = await call('POST', `/v1/bots/${botId}/notifications`, key(), { all: true, title: 'Hello', body: 'logs' });
    expect(sent.status).toBe(202);
    const id = JSON.parse(sent.text).notificationId;
    const deadline = Date.now() + 15_000;
    let status;
    do {
      await new Promise((r) => setTimeout(r, 100));
      status = JSON.parse((await call('GET', `/v1/bots/${botId}/notifications/${id}`, key())).text);
    } while ((status.status === 'queued' || status.status === 'sending' || status.pending !== 0) && Date.now() < deadline);
    expect(status).toMatchObject({ status: 'completed', sent: 1, invalidTokens: 1 });
    expect((await call('POST', `/v1/bots/${botId}/notifications/test`, key(), { token: 'tok-log-a' })).status).toBe(200);

    oauth.expireAllTokens();
    oauth.revoke(account.client_email);
    const failing = await call('POST', `/v1/bots/${botId}/notifications`, key(), { all: true, title: 'Hello', body: 'revoked' });
    expect(failing.status).toBe(202);
    expect((await call('POST', `/v1/bots/${botId}/notifications/test`, key(), { token: 'tok-log-a' })).status).toBe(400);
    // The refused notification is logged by the push service's fan-out job, a moment after its 202.
    const logDeadline = Date.now() + 15_000;
    while (!capturedLogs().includes('Google refused the Firebase service account') && Date.now() < logDeadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);

  it('the processes logged (so the search below means something)', () => {
    const logs = capturedLogs();
    expect(logs).toContain('Firebase service account saved');
    expect(logs).toContain('minted an FCM access token');
    expect(logs).toContain('Google refused the Firebase service account');
  });

  it('no log line and no answer holds the private key, parts of it, or an access token', () => {
    const keyLines = account.private_key.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'));
    expect(keyLines.length).toBeGreaterThan(20);
    for (const [name, text] of [
      ['logs', capturedLogs()],
      ['answers', answers.join('\n')],
    ] as const) {
      expect({ name, found: text.includes('PRIVATE KEY') }).toEqual({ name, found: false });
      expect({ name, found: text.includes('ya29.') }).toEqual({ name, found: false });
      // A line of the key as such, and with JSON's escaping of the newlines around it.
      const leaked = keyLines.filter((line) => text.includes(line.slice(10, 50)));
      expect({ name, leaked }).toEqual({ name, leaked: [] });
    }
  });
});
