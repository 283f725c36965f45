import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BotRepository } from '@platform/database';
import { LocalRedis, startLocalRedis } from '@platform/local-infra';
import { SeededAdmin, oauthPost, openAuthorize, registerOAuthClient, seedBotAdmin, submitConsent } from '@platform/testing';
import { useStack } from './e2e-stack.js';

const REDIRECT = 'https://client.example.com/cb';

/** Login and token endpoints are limited per client and per IP, counted in Redis across replicas. */
describe('abuse limits of login and OAuth endpoints (two replicas, one Redis)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'throttle-'));
  let redis: LocalRedis;
  let urls: string[];
  let botId: string;
  let admin: SeededAdmin;
  let client: { client_id: string; client_secret: string };
  let n = 0;
  const freshIp = () => `100.64.0.${++n}`;

  beforeAll(async () => {
    redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
  }, 120_000);
  const stack = useStack({
    env: () => ({
      REDIS_URL: redis.url,
      AUTH_RATE_LIMIT_PER_IP: '6',
      AUTH_RATE_LIMIT_PER_CLIENT: '4',
      AUTH_RATE_LIMIT_PER_ACCOUNT: '3',
      AUTH_RATE_WINDOW_SECONDS: '120',
      TRUST_PROXY: 'true',
    }),
  });
  afterAll(async () => {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    urls = [stack.url, (await stack.replica()).url];
    botId = (await stack.gateway.get(BotRepository, { strict: false }).create('throttled')).id;
    admin = await seedBotAdmin(stack.gateway, botId);
    client = await registerOAuthClient(urls[0], botId, admin.accessToken, { name: 'c', type: 'confidential', redirect_uris: [REDIRECT] });
  });

  const badCode = (i: number, fields: Record<string, string>, ip: string) =>
    oauthPost(urls[i % 2], '/oauth/token', { grant_type: 'authorization_code', code: 'bac_x', redirect_uri: REDIRECT, ...fields }, { headers: { 'x-forwarded-for': ip } });

  async function expect429(res: { status: number; headers: Headers }) {
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(120);
  }

  it('/oauth/token per client: the 5th request in the window, wherever it lands, is 429 with Retry-After', async () => {
    const creds = { client_id: client.client_id, client_secret: client.client_secret };
    for (let i = 0; i < 4; i++) expect((await badCode(i, creds, freshIp())).status).toBe(400);
    const res = await badCode(4, creds, freshIp());
    await expect429(res);
    expect(await res.json()).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
    // Also when the client authenticates by HTTP Basic (the limit follows the client id, not the method).
    const basic = await oauthPost(
      urls[1],
      '/oauth/token',
      { grant_type: 'authorization_code', code: 'bac_x', redirect_uri: REDIRECT },
      {
        basic: { id: client.client_id, secret: client.client_secret },
        headers: { 'x-forwarded-for': freshIp() },
      },
    );
    await expect429(basic);
  });

  it('/oauth/token per IP: the 7th request from one address is 429, whatever the client ids', async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++) expect((await badCode(i, { client_id: `bci_guess${i}`, client_secret: 'bcs_x' }, ip)).status).toBe(401);
    await expect429(await badCode(6, { client_id: 'bci_another', client_secret: 'bcs_x' }, ip));
    expect((await badCode(7, { client_id: 'bci_another', client_secret: 'bcs_x' }, freshIp())).status).toBe(401);
  });

  it('/oauth/revoke per IP', async () => {
    const ip = freshIp();
    const revoke = (i: number) => oauthPost(urls[i % 2], '/oauth/revoke', { token: 'bat_x', client_id: `bci_r${i}` }, { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 6; i++) expect((await revoke(i)).status).toBe(401);
    await expect429(await revoke(6));
  });

  it('POST /v1/auth/login per IP across replicas (platform error body)', async () => {
    const ip = freshIp();
    const login = (i: number) =>
      fetch(`${urls[i % 2]}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email: `nobody${i}@example.com`, password: 'wrong password' }),
      });
    for (let i = 0; i < 6; i++) expect((await login(i)).status).toBe(401);
    const res = await login(6);
    await expect429(res);
    expect(await res.json()).toEqual({ message: expect.any(String), status: 'error' });
  });

  it('failed passwords per account, on the login API and the consent form alike', async () => {
    const user = await seedBotAdmin(stack.gateway, botId);
    const wrong = (i: number) =>
      fetch(`${urls[i % 2]}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
        body: JSON.stringify({ email: user.email, password: 'wrong password' }),
      });
    for (let i = 0; i < 3; i++) expect((await wrong(i)).status).toBe(401);
    const page = await openAuthorize(urls[1], { client_id: client.client_id, response_type: 'code', redirect_uri: REDIRECT }, { 'x-forwarded-for': freshIp() });
    const done = await submitConsent(urls[1], page.form!, { email: user.email, password: user.password }, { 'x-forwarded-for': freshIp() });
    await expect429(done);
    expect(done.html).toContain('Too many attempts');
    expect(done.location).toBeUndefined();
  });

  it('POST /v1/auth/refresh per IP', async () => {
    const ip = freshIp();
    const refresh = (i: number) =>
      fetch(`${urls[i % 2]}/v1/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ refresh_token: 'brt_x' }) });
    for (let i = 0; i < 6; i++) expect((await refresh(i)).status).toBe(401);
    await expect429(await refresh(6));
  });

  it('Redis down: 503 with a clear answer instead of unlimited attempts; back up: served again', async () => {
    await redis.stop();
    try {
      const token = await badCode(0, { client_id: client.client_id, client_secret: client.client_secret }, freshIp());
      expect(token.status).toBe(503);
      expect(await token.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/unavailable/) });

      const login = await fetch(`${urls[1]}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
        body: JSON.stringify({ email: admin.email, password: admin.password }),
      });
      expect(login.status).toBe(503);
      expect(await login.json()).toEqual({ message: expect.stringMatching(/Rate limiting is unavailable/), status: 'error' });

      const page = await openAuthorize(urls[0], { client_id: client.client_id, response_type: 'code', redirect_uri: REDIRECT }, { 'x-forwarded-for': freshIp() });
      expect(page.status).toBe(503);
      expect(page.location).toBeUndefined();
    } finally {
      await redis.start();
    }
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      const res = await fetch(`${urls[1]}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
        body: JSON.stringify({ email: admin.email, password: admin.password }),
      });
      status = res.status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  }, 120_000);
});
