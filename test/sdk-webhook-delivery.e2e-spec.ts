import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { runCli } from '../apps/cli/src/run-cli.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { BotWebhookJob, SdkQueueNames, chatUserId, verifyWebhookSignature } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { LocalRedis, startLocalRedis } from '@platform/local-infra';
import { queueToken } from '@platform/queue';
import { BotWebhookServer } from '@platform/sandbox';
import { seedBotAdmin } from '@platform/testing';
import { SdkBot, eventually, postJson, seedSdkBot, sendBotEvent, startSession } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** Webhook calls to bots: queued durably, retried until the bot's endpoint answers 2xx, signed with the bot's secret. */
describe('bot webhook delivery', () => {
  const webhook = new BotWebhookServer();
  const stack = useStack({ servers: [webhook], env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_BACKOFF_MS: '100', WEBHOOK_MAX_ATTEMPTS: '20', WEBHOOK_TIMEOUT_MS: '1000' } });

  const queue = () => stack.gateway.get<Queue<BotWebhookJob>>(queueToken(SdkQueueNames.botWebhook), { strict: false });
  async function jobOf(sessionId: string) {
    const jobs = await queue().getJobs(['wait', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    return jobs.find((j) => j?.data.delivery.type !== 'message.received' && j.data.delivery.sessionId === sessionId);
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
    expect(attempts.every((c) => c.signatureValid && c.request.headers['x-platform-delivery'] === eventId)).toBe(true);
    expect(delivered.body).toMatchObject({ type: 'app.event', code: 'checkout', data: '{"total":12.5}', userId: chatUserId(token) });
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS and keeps the failed job', async () => {
    const strict = await createGateway({ ...stack.env, WEBHOOK_MAX_ATTEMPTS: '2' });
    const strictUrl = await listenGateway(strict);
    try {
      const bot = await seedSdkBot(strict, `${webhook.baseUrl}/always-failing`);
      webhook.secret = bot.secret;
      webhook.failNext(500, 500);
      const { sessionId } = await startSession(strictUrl, bot.botId, 'give_up_user');
      const failed = await eventually(async () => {
        const job = await jobOf(sessionId);
        // Read again once failed: the copy read before may predate the last attempt (attemptsMade one short).
        return (await job?.isFailed()) ? await jobOf(sessionId) : undefined;
      }, 10_000, 'job failed');
      expect(failed.attemptsMade).toBe(2);
      expect(webhook.calls.filter((c) => c.body.sessionId === sessionId).map((c) => c.status)).toEqual([500, 500]);
    } finally {
      await strict.close();
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
      expect(view).toEqual({ message: expect.any(String), status: 'success', url: `${webhook.baseUrl}/admin-set-2`, secretSet: true });
      const sealed = await stack.gateway.get(PrismaService, { strict: false }).bot.findUnique({ where: { id: bot.botId } });
      expect(sealed!.webhookSecretEncrypted).not.toContain(set.secret);

      const rotated = await (await call('PUT', { url: `${webhook.baseUrl}/admin-set-2`, rotateSecret: true })).json();
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(set.secret);
      webhook.secret = rotated.secret;
      const { sessionId } = await startSession(stack.url, bot.botId, 'admin_user');
      const delivered = await webhook.waitFor((c) => c.body.sessionId === sessionId);
      expect(delivered.request.path).toBe('/admin-set-2');
      expect(verifyWebhookSignature({ secret: set.secret, header: delivered.request.headers['x-platform-signature'], rawBody: delivered.request.rawBody })).toBe(false);
    });

    it('refuses bad URLs (400), missing tokens (401) and non-admins (403); DELETE removes the webhook', async () => {
      for (const bad of ['ftp://example.com/hook', 'not a url', 'https://user:pw@example.com/hook']) {
        const res = await call('PUT', { url: bad });
        expect(res.status).toBe(400);
        expect((await res.json()).message).toMatch(/^url must/);
      }
      expect((await call('GET', undefined, '')).status).toBe(401);
      const developer = await seedBotAdmin(stack.gateway, bot.botId, 'developer');
      expect((await call('PUT', { url: `${webhook.baseUrl}/x` }, developer.accessToken)).status).toBe(403);
      expect((await call('DELETE')).status).toBe(200);
      expect(await (await call('GET')).json()).toMatchObject({ url: null, secretSet: false });
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

    it('refuses http URLs unless WEBHOOK_ALLOW_HTTP=true, and unknown bots (exit 2)', async () => {
      const bot = await seedSdkBot(stack.gateway);
      const http = await cli(['webhook', 'set', '--bot', bot.botId, '--url', 'http://example.com/hook'], { WEBHOOK_ALLOW_HTTP: 'false' });
      expect(http).toEqual({ code: 2, lines: ['error: --url must be an https URL'] });
      expect((await cli(['webhook', 'set', '--bot', bot.botId, '--url', 'https://example.com/hook'], { WEBHOOK_ALLOW_HTTP: 'false' })).code).toBe(0);
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
  }, 60_000);
  const stack = useStack({ servers: [webhook], env: () => ({ REDIS_URL: redis.url, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_BACKOFF_MS: '100' }) });
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
