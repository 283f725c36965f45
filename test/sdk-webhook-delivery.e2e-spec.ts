import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../apps/cli/src/run-cli.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { LegacyBotWebhookJob, LegacyCallbackQueueNames, chatUserId, verifyWebhookSignature } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { LocalRedis, startLocalRedis } from '@platform/local-infra';
import { CoreEnv } from '@platform/config';
import type { Redis } from 'ioredis';
import { CallbackQueue, REQUEST_REDIS, lifecycleStreamKey } from '@platform/queue';
import { BotWebhookServer } from '@platform/sandbox';
import { seedBotAdmin, testQueue } from '@platform/testing';
import { SdkBot, eventually, postJson, seedSdkBot, sendBotEvent, startSession } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/**
 * Webhook calls to bots: queued durably by the gateway, sent by the channel worker, retried until the
 * bot's endpoint answers 2xx, signed with the bot's secret(s), logged with postbacks.
 */
describe('bot webhook delivery', () => {
  const webhook = new BotWebhookServer();
  const stack = useStack({
    servers: [webhook],
    worker: true,
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '100', CALLBACK_MAX_ATTEMPTS: '20', CALLBACK_TIMEOUT_MS: '1000' },
  });

  const queue = () => stack.gateway.get(CallbackQueue, { strict: false });
  async function jobOf(sessionId: string) {
    const jobs = await queue().getJobs(['wait', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    return jobs.find((j) => j?.data.kind === 'webhook' && j.data.event !== 'message.received' && (JSON.parse(j.data.body) as { sessionId?: string }).sessionId === sessionId);
  }

  it('session.started is retried while the endpoint is down and arrives once it is up', async () => {
    const down = new BotWebhookServer();
    const port = Number(new URL(await down.listen()).port);
    await down.close(); // nothing listens on the port now: connection refused
    try {
      const bot = await seedSdkBot(stack.gateway, `http://127.0.0.1:${port}/hook`);
      down.secret = bot.secret;
      const { sessionId } = await startSession(stack.url, bot.botId, 'down_then_up', { nested: { list: [1, { two: 2 }] } });
      // The answer came after the job was durable; it is now failing and being retried.
      await eventually(async () => ((await jobOf(sessionId))?.attemptsMade ?? 0) >= 2 || undefined, 10_000, 'two failed attempts');
      expect(down.calls).toEqual([]);

      await down.listen(port);
      const call = await down.waitFor((c) => c.body.sessionId === sessionId, 10_000);
      expect(call.signatureValid).toBe(true);
      expect(call.decoded).toEqual({ nested: { list: [1, { two: 2 }] } });
      await eventually(async () => (await (await jobOf(sessionId))?.isCompleted()) || undefined, 5000, 'job completed');
      expect(down.calls.filter((c) => c.body.id === call.body.id)).toHaveLength(1);
    } finally {
      await down.close();
    }
  });

  it('an app event answered 503 then 500 is retried with the same delivery id, each call signed', async () => {
    const bot = await seedSdkBot(stack.gateway, `${webhook.baseUrl}/events`);
    webhook.secret = bot.secret;
    const token = 'retry_user';
    const { sessionId } = await startSession(stack.url, bot.botId, token);
    await webhook.waitFor((c) => c.body.sessionId === sessionId && c.body.type === 'session.started');

    webhook.failNext(503, 500);
    const res = await postJson(`${stack.url}/v1/bots/${bot.botId}/sessions/${sessionId}/events`, { code: 'checkout', data: { total: 12.5 } }, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(202);
    const { eventId } = await res.json();
    const delivered = await webhook.waitFor((c) => c.body.id === eventId);
    const attempts = webhook.calls.filter((c) => c.body.id === eventId);
    expect(attempts.map((c) => c.status)).toEqual([503, 500, 200]);
    expect(attempts.every((c) => c.signatureValid && c.legacySignatureValid && c.request.headers['x-platform-delivery'] === eventId)).toBe(true);
    expect(attempts.every((c) => c.request.headers['webhook-id'] === eventId)).toBe(true); // one id: the receiver dedupes
    expect(delivered.body).toMatchObject({ type: 'app.event', code: 'checkout', data: '{"total":12.5}', userId: chatUserId(token) });
  });

  it('gives up after CALLBACK_MAX_ATTEMPTS and keeps the failed job', async () => {
    const strict = await createGateway({ ...stack.env, CALLBACK_MAX_ATTEMPTS: '2' });
    const strictUrl = await listenGateway(strict);
    try {
      const bot = await seedSdkBot(strict, `${webhook.baseUrl}/always-failing`);
      webhook.secret = bot.secret;
      webhook.failNext(500, 500);
      const { sessionId } = await startSession(strictUrl, bot.botId, 'give_up_user');
      const failed = await eventually(
        async () => {
          const job = await jobOf(sessionId);
          // Read again once failed: the copy read before may predate the last attempt (attemptsMade one short).
          return (await job?.isFailed()) ? await jobOf(sessionId) : undefined;
        },
        10_000,
        'job failed',
      );
      expect(failed.attemptsMade).toBe(2);
      expect(webhook.calls.filter((c) => c.body.sessionId === sessionId).map((c) => c.status)).toEqual([500, 500]);
    } finally {
      await strict.close();
    }
  });

  it('calls an earlier gateway queued to bot-webhook are moved to the callback queue and delivered once', async () => {
    const bot = await seedSdkBot(stack.gateway, `${webhook.baseUrl}/legacy`);
    webhook.secret = bot.secret;
    const legacy = testQueue<LegacyBotWebhookJob>(LegacyCallbackQueueNames.botWebhook, stack.env);
    try {
      const delivery = { type: 'app.event' as const, id: randomUUID(), botId: bot.botId, sessionId: randomUUID(), userId: 'u', code: 'legacy', data: '{}', createdAt: new Date().toISOString() };
      await legacy.add('app.event', { botId: bot.botId, delivery }, { jobId: delivery.id });
      await legacy.add('app.event', { botId: bot.botId, delivery }, { jobId: `${delivery.id}-again` }); // the same event twice: one callback
      const call = await webhook.waitFor((c) => c.body.id === delivery.id);
      expect(call.request.headers['webhook-id']).toBe(delivery.id);
      expect(call.signatureValid && call.legacySignatureValid).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(webhook.calls.filter((c) => c.body.id === delivery.id)).toHaveLength(1);
    } finally {
      await legacy.close();
    }
  });

  it('a bot without a webhook still gets sessions (the stream works), and no call is made', async () => {
    const bot = await seedSdkBot(stack.gateway);
    const before = webhook.calls.length;
    const { sessionId } = await startSession(stack.url, bot.botId, 'no_hook_user');
    expect(await jobOf(sessionId)).toBeUndefined();
    expect(webhook.calls.length).toBe(before);
  });

  describe('webhook settings over the admin API', () => {
    let bot: SdkBot;
    let token: string;
    beforeAll(async () => {
      bot = await seedSdkBot(stack.gateway);
      token = (await seedBotAdmin(stack.gateway, bot.botId)).accessToken;
    });
    const call = (method: string, body?: unknown, auth = token, botId = bot.botId) =>
      fetch(`${stack.url}/v1/bots/${botId}/webhook`, {
        method,
        headers: { 'x-auth-token': auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    it('PUT shows a new secret once; GET never does; rotation changes what verifies', async () => {
      const first = await call('PUT', { url: `${webhook.baseUrl}/admin-set` });
      expect(first.status).toBe(200);
      const set = await first.json();
      expect(set).toEqual({ message: expect.any(String), status: 'success', url: `${webhook.baseUrl}/admin-set`, secretSet: true, secret: expect.stringMatching(/^whsec_/) });

      const again = await (await call('PUT', { url: `${webhook.baseUrl}/admin-set-2` })).json();
      expect(again.secret).toBeUndefined();
      const view = await (await call('GET')).json();
      expect(view).toEqual({ message: expect.any(String), status: 'success', url: `${webhook.baseUrl}/admin-set-2`, secretSet: true, disabledAt: null });
      const sealed = await stack.gateway.get(PrismaService, { strict: false }).callbackSecret.findUnique({ where: { botId: bot.botId } });
      expect(sealed!.secretEncrypted).not.toContain(set.secret);

      // A rotation: the new secret is shown once, and calls carry both signatures until it ends.
      const rotated = await (await call('PUT', { url: `${webhook.baseUrl}/admin-set-2`, rotateSecret: true })).json();
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(set.secret);
      expect(Date.parse(rotated.previousSecretValidUntil)).toBeGreaterThan(Date.now());
      webhook.secret = rotated.secret;
      const during = await startSession(stack.url, bot.botId, 'admin_user');
      const both = await webhook.waitFor((c) => c.body.sessionId === during.sessionId);
      expect(both.request.path).toBe('/admin-set-2');
      for (const secret of [set.secret, rotated.secret]) {
        expect(verifyWebhookSignature({ secret, headers: both.request.headers, rawBody: both.request.rawBody })).toBe(true);
        expect(verifyWebhookSignature({ secret, header: both.request.headers['x-platform-signature'], rawBody: both.request.rawBody })).toBe(true);
      }

      const ended = await fetch(`${stack.url}/v1/bots/${bot.botId}/callbacks/secret/previous`, { method: 'DELETE', headers: { 'x-auth-token': token } });
      expect(ended.status).toBe(200);
      const after = await startSession(stack.url, bot.botId, 'admin_user_2');
      const delivered = await webhook.waitFor((c) => c.body.sessionId === after.sessionId);
      expect(verifyWebhookSignature({ secret: set.secret, headers: delivered.request.headers, rawBody: delivered.request.rawBody })).toBe(false);
      expect(verifyWebhookSignature({ secret: set.secret, header: delivered.request.headers['x-platform-signature'], rawBody: delivered.request.rawBody })).toBe(false);
    });

    it('refuses bad URLs (400), missing tokens (401) and non-admins (403); DELETE removes the webhook', async () => {
      for (const bad of ['ftp://example.com/hook', 'not a url', 'https://user:pw@example.com/hook']) {
        const res = await call('PUT', { url: bad });
        expect(res.status).toBe(400);
        expect((await res.json()).message).toMatch(/^url must/);
      }
      const unknown = await call('PUT', { url: 'https://nowhere.invalid/hook' });
      expect(unknown.status).toBe(400);
      expect((await unknown.json()).message).toMatch(/^url host cannot be resolved: nowhere.invalid does not resolve/);
      expect((await call('GET', undefined, '')).status).toBe(401);
      const developer = await seedBotAdmin(stack.gateway, bot.botId, 'developer');
      expect((await call('PUT', { url: `${webhook.baseUrl}/x` }, developer.accessToken)).status).toBe(403);
      expect((await call('DELETE')).status).toBe(200);
      expect(await (await call('GET')).json()).toMatchObject({ url: null, secretSet: false, disabledAt: null });
    });
  });

  describe('one delivery log, replays and endpoint health (callbacks API)', () => {
    const api = async <T>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${stack.url}${path}`, {
        method,
        headers: { 'x-auth-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    };
    interface Entry {
      id: string;
      kind: string;
      event: string;
      url: string;
      attempts: number;
      replays: number;
      duplicates: number;
      lastStatus: number | null;
      deliveredAt: string | null;
    }

    it('lists webhook calls with their attempts; a replay re-sends the same webhook-id and counts as a replay and a duplicate', async () => {
      const bot = await seedSdkBot(stack.gateway, `${webhook.baseUrl}/logged`);
      webhook.secret = bot.secret;
      const token = (await seedBotAdmin(stack.gateway, bot.botId)).accessToken;
      webhook.failNext(500);
      const { sessionId } = await startSession(stack.url, bot.botId, 'logged_user');
      const id = (await webhook.waitFor((c) => c.body.sessionId === sessionId)).body.id as string;
      const entryOf = async () => (await api<{ items: Entry[]; total: number }>(token, 'GET', `/v1/bots/${bot.botId}/callbacks/deliveries?kind=webhook`)).body.items.find((e) => e.id === id);
      const logged = await eventually(async () => ((await entryOf())?.deliveredAt ? entryOf() : undefined), 10_000, 'the delivery logged');
      expect(logged).toMatchObject({ kind: 'webhook', event: 'session.started', url: `${webhook.baseUrl}/logged`, attempts: 2, replays: 0, duplicates: 0, lastStatus: 200 });
      expect((await api<{ total: number }>(token, 'GET', `/v1/bots/${bot.botId}/callbacks/deliveries?kind=postback`)).body.total).toBe(0);

      const replay = await api<{ delivery: Entry }>(token, 'POST', `/v1/bots/${bot.botId}/callbacks/deliveries/${id}/replay`);
      expect(replay.status).toBe(200);
      await eventually(async () => webhook.delivered.filter((c) => c.body.id === id).length === 2 || undefined, 10_000, 'the replay delivered');
      expect(webhook.delivered.filter((c) => c.body.id === id).map((c) => c.request.headers['webhook-id'])).toEqual([id, id]);
      await eventually(async () => (await entryOf())?.replays === 1 || undefined, 10_000, 'the replay logged');
      expect(await entryOf()).toMatchObject({ attempts: 3, replays: 1, duplicates: 1 });
      expect((await api(token, 'POST', `/v1/bots/${bot.botId}/callbacks/deliveries/nope/replay`)).status).toBe(404);
      expect((await api(token, 'GET', `/v1/bots/${bot.botId}/callbacks/deliveries?kind=email`)).status).toBe(400);
    });

    it('POST callbacks/secret/rotate: a new secret, the previous one valid for the hours asked; both sign until then', async () => {
      const bot = await seedSdkBot(stack.gateway, `${webhook.baseUrl}/rotating`);
      const token = (await seedBotAdmin(stack.gateway, bot.botId)).accessToken;
      expect((await api(token, 'POST', `/v1/bots/${bot.botId}/callbacks/secret/rotate`, { previousValidHours: 0 })).status).toBe(400);
      const bodyless = await fetch(`${stack.url}/v1/bots/${bot.botId}/callbacks/secret/rotate`, { method: 'POST', headers: { 'x-auth-token': token } });
      expect(bodyless.status).toBe(200); // the default overlap, CALLBACK_SECRET_ROTATION_HOURS
      const first = (await bodyless.json()) as { secret: string; previousSecretValidUntil: string };
      expect(Math.abs(Date.parse(first.previousSecretValidUntil) - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
      const rotated = await api<{ secret: string; previousSecretValidUntil: string }>(token, 'POST', `/v1/bots/${bot.botId}/callbacks/secret/rotate`, { previousValidHours: 2 });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(Math.abs(Date.parse(rotated.body.previousSecretValidUntil) - (Date.now() + 2 * 3600_000))).toBeLessThan(60_000);
      const view = await api<{ secretSet: boolean; previousSecretValidUntil: string; webhook: { url: string } }>(token, 'GET', `/v1/bots/${bot.botId}/callbacks`);
      expect(view.body).toMatchObject({ secretSet: true, previousSecretValidUntil: rotated.body.previousSecretValidUntil, webhook: { url: `${webhook.baseUrl}/rotating` }, postback: null });
      webhook.secret = rotated.body.secret;
      const { sessionId } = await startSession(stack.url, bot.botId, 'rotating_user');
      const call = await webhook.waitFor((c) => c.body.sessionId === sessionId);
      // The secret before this rotation and the new one; the one before that no longer signs.
      for (const secret of [first.secret, rotated.body.secret]) expect(verifyWebhookSignature({ secret, headers: call.request.headers, rawBody: call.request.rawBody })).toBe(true);
      expect(verifyWebhookSignature({ secret: bot.secret, headers: call.request.headers, rawBody: call.request.rawBody })).toBe(false);
    });

    it('disables an endpoint that failed every call for CALLBACK_DISABLE_AFTER_HOURS, says so, and enables it when its URL is set again', async () => {
      const bot = await seedSdkBot(stack.gateway, `${webhook.baseUrl}/dying`);
      webhook.secret = bot.secret;
      const token = (await seedBotAdmin(stack.gateway, bot.botId)).accessToken;
      // As if it had been failing for 73 hours (the default window is 72).
      const prisma = stack.gateway.get(PrismaService, { strict: false });
      await prisma.callbackEndpoint.update({ where: { botId_kind: { botId: bot.botId, kind: 'webhook' } }, data: { failingSince: new Date(Date.now() - 73 * 3600_000) } });
      webhook.failNext(500);
      const { sessionId } = await startSession(stack.url, bot.botId, 'dying_user');
      const settings = await eventually(
        async () => {
          const view = (await api<{ webhook: { disabledAt: string | null; disabledReason: string | null } }>(token, 'GET', `/v1/bots/${bot.botId}/callbacks`)).body;
          return view.webhook.disabledAt ? view : undefined;
        },
        10_000,
        'the endpoint disabled',
      );
      expect(settings.webhook.disabledReason).toBe('answered 500');
      expect((await api<{ disabledAt: string | null }>(token, 'GET', `/v1/bots/${bot.botId}/webhook`)).body.disabledAt).toBe(settings.webhook.disabledAt);
      const failed = await eventually(async () => ((await (await jobOf(sessionId))?.isFailed()) ? jobOf(sessionId) : undefined), 10_000, 'the call given up');
      expect(failed!.failedReason).toMatch(/disabled/);
      expect(webhook.calls.filter((c) => c.body.sessionId === sessionId)).toHaveLength(1); // not called again once disabled

      const redis = stack.gateway.get<Redis>(REQUEST_REDIS, { strict: false });
      const entries = await redis.xrange(lifecycleStreamKey(stack.gateway.get(CoreEnv, { strict: false })), '-', '+');
      const events = entries.map(([, fields]) => Object.fromEntries(fields.flatMap((_, i) => (i % 2 ? [] : [[fields[i], fields[i + 1]]]))));
      expect(events.filter((e) => e.type === 'endpoint.disabled' && e.botId === bot.botId)).toEqual([
        { type: 'endpoint.disabled', botId: bot.botId, kind: 'webhook', url: `${webhook.baseUrl}/dying`, at: settings.webhook.disabledAt, reason: 'answered 500' },
      ]);

      expect((await api(token, 'PUT', `/v1/bots/${bot.botId}/webhook`, { url: `${webhook.baseUrl}/dying` })).status).toBe(200);
      expect((await api<{ webhook: { disabledAt: string | null; failingSince: string | null } }>(token, 'GET', `/v1/bots/${bot.botId}/callbacks`)).body.webhook).toMatchObject({
        disabledAt: null,
        failingSince: null,
      });
      const again = await startSession(stack.url, bot.botId, 'revived_user');
      await webhook.waitFor((c) => c.body.sessionId === again.sessionId);
    });
  });

  describe('webhook commands of the CLI', () => {
    const cli = async (argv: string[], overrides: Record<string, string> = {}) => {
      const lines: string[] = [];
      const code = await runCli(argv, (l) => lines.push(l), { ...stack.env, ...overrides });
      return { code, lines };
    };

    it('webhook set prints the secret once; deliveries verify with it; show and remove', async () => {
      const bot = await seedSdkBot(stack.gateway);
      const set = await cli(['webhook', 'set', '--bot', bot.botId, '--url', `${webhook.baseUrl}/from-cli`]);
      expect(set.code).toBe(0);
      const secret = set.lines[set.lines.length - 1];
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      webhook.secret = secret;
      const { sessionId } = await startSession(stack.url, bot.botId, 'cli_user', { from: 'cli' });
      expect((await webhook.waitFor((c) => c.body.sessionId === sessionId)).decoded).toEqual({ from: 'cli' });

      const unchanged = await cli(['webhook', 'set', '--bot', bot.botId, '--url', `${webhook.baseUrl}/from-cli-2`]);
      expect(unchanged.lines.join('\n')).not.toMatch(/whsec_/);
      expect((await cli(['webhook', 'show', '--bot', bot.botId])).lines).toEqual([`url: ${webhook.baseUrl}/from-cli-2`, 'signing secret: set']);
      expect((await cli(['webhook', 'remove', '--bot', bot.botId])).code).toBe(0);
      expect((await cli(['webhook', 'show', '--bot', bot.botId])).lines).toEqual(['url: (none)', 'signing secret: not set']);
    });

    it('refuses http URLs unless WEBHOOK_ALLOW_HTTP=true, non-public addresses unless allowed, and unknown bots (exit 2)', async () => {
      const bot = await seedSdkBot(stack.gateway);
      const http = await cli(['webhook', 'set', '--bot', bot.botId, '--url', 'http://example.com/hook'], { WEBHOOK_ALLOW_HTTP: 'false' });
      expect(http).toEqual({ code: 2, lines: ['error: --url must be an https URL'] });
      const loopback = await cli(['webhook', 'set', '--bot', bot.botId, '--url', 'https://127.0.0.1/hook'], { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
      expect(loopback).toEqual({ code: 2, lines: ['error: --url must reach a public address: 127.0.0.1 resolves to 127.0.0.1, which is not a public address'] });
      expect((await cli(['webhook', 'set', '--bot', bot.botId, '--url', 'https://localhost/hook'], { WEBHOOK_ALLOW_HTTP: 'false' })).code).toBe(0);
      expect((await cli(['webhook', 'show', '--bot', '00000000-0000-4000-8000-000000000000'])).code).toBe(2);
    });
  });
});

/** Nothing is answered 201/202 that is not durable: with Redis down the SDK endpoints answer 500 quickly and keep nothing. */
describe('SDK endpoints while Redis is down', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-outage-'));
  const webhook = new BotWebhookServer();
  let redis: LocalRedis;
  let bot: SdkBot;

  beforeAll(async () => {
    redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
  }, 120_000);
  const stack = useStack({ servers: [webhook], worker: true, env: () => ({ REDIS_URL: redis.url, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '100' }) });
  afterAll(async () => {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway, webhook.baseUrl);
    webhook.secret = bot.secret;
  });

  it('session start and bot events answer 500 within 2 s and keep nothing; both work again once Redis is back', async () => {
    const prisma = stack.gateway.get(PrismaService, { strict: false });
    await redis.stop();
    try {
      const before = await prisma.sdkSession.count();
      let started = Date.now();
      const res = await postJson(`${stack.url}/v1/bots/${bot.botId}/sessions`, { authToken: 'outage_user', payload: {}, version: 2 });
      expect(res.status).toBe(500);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await res.json()).toEqual({ message: expect.stringMatching(/unavailable/), status: 'error' });
      expect(await prisma.sdkSession.count()).toBe(before);

      started = Date.now();
      const ev = await sendBotEvent(stack.url, bot, chatUserId('outage_user'), 'x', {});
      expect(ev.status).toBe(500);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await redis.start();
    }
    const { sessionId } = await eventually(
      async () => {
        const res = await postJson(`${stack.url}/v1/bots/${bot.botId}/sessions`, { authToken: 'outage_user', payload: { back: true }, version: 2 });
        return res.status === 201 ? ((await res.json()) as { sessionId: string }) : undefined;
      },
      15_000,
      'session start after Redis is back',
    );
    expect((await webhook.waitFor((c) => c.body.sessionId === sessionId, 15_000)).decoded).toEqual({ back: true });
  });
});
