import { runCli } from '../apps/cli/src/run-cli.js';
import { PostbackReceiver, WhatsAppCloudSandbox } from '@platform/sandbox';
import { type RedisClient, lifecycleStreamKey } from '@platform/queue';
import { WEBHOOK_TEST_ENV, carouselBody, seedBotAdmin, signWebhook, testRedis, triggerCarousel, until, waitForMessageStatus, whatsappNotification } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** A WhatsApp status notification for one message, signed as Meta signs it. */
function statusWebhook(wamid: string, status: string, extra: Record<string, unknown> = {}) {
  const statuses = [{ id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '919876543210', ...extra }];
  const body = JSON.stringify(whatsappNotification({ statuses }));
  return { body, signature: signWebhook(body) };
}

describe('carousel postbacks and the lifecycle stream: every status change reaches the integrator', () => {
  const cloud = new WhatsAppCloudSandbox();
  const receiver = new PostbackReceiver();
  const stack = useStack({
    cloud,
    servers: [receiver],
    worker: true,
    seed: true,
    env: { ...WEBHOOK_TEST_ENV, CALLBACK_BACKOFF_MS: '100' },
  });
  let redis: RedisClient;
  let lifecycleKey: string;
  let token: string;
  stack.defer(() => redis?.disconnect());

  beforeAll(async () => {
    token = (await seedBotAdmin(stack.gateway, stack.seed.botId)).accessToken;
    redis = testRedis(stack.env);
    lifecycleKey = lifecycleStreamKey(stack.env);
    // The consumer group exists before any message, so it sees every entry.
    await redis.xgroup('CREATE', lifecycleKey, 'integrator', '$', 'MKSTREAM');
  });

  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${stack.url}/v1/bots/${stack.seed.botId}${path}`, {
      method,
      headers: { 'x-auth-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function report(wamid: string, status: string, extra: Record<string, unknown> = {}) {
    const { body, signature } = statusWebhook(wamid, status, extra);
    const res = await fetch(`${stack.url}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body });
    expect(res.status).toBe(200);
  }

  const trigger = (config?: unknown) => triggerCarousel(stack.url, stack.seed, { ...carouselBody(stack.seed), ...(config === undefined ? {} : { config }) });
  const postbacksOf = (msgId: string) => receiver.delivered.filter((c) => c.body.messageId === msgId);

  it('the bot postback URL is set by an administrator; a signing secret comes with it once', async () => {
    const res = await admin('PUT', '/postback', { url: `${receiver.baseUrl}/bot-default` });
    const body = await res.json();
    expect([res.status, body]).toEqual([200, expect.objectContaining({ status: 'success', url: `${receiver.baseUrl}/bot-default`, secretSet: true, secret: expect.stringMatching(/^whsec_/) })]);
    receiver.secret = body.secret;
    expect(await (await admin('GET', '/postback')).json()).toEqual({ message: 'Postback settings', status: 'success', url: `${receiver.baseUrl}/bot-default`, secretSet: true, disabledAt: null });
  });

  it('sent, delivered, read: POSTed in order to the trigger postbackUrl, signed, with customPayload echoed', async () => {
    const customPayload = { orderId: 'A-17', tags: ['spring', 'promo'], nested: { n: 1.5, ok: true } };
    const msgId = await trigger({ postbackUrl: `${receiver.baseUrl}/per-trigger`, customPayload });
    const sent = await receiver.waitFor((c) => c.body.messageId === msgId && c.body.status === 'sent');
    const { providerMessageId: wamid } = await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent']);
    await report(wamid as string, 'delivered');
    await receiver.waitFor((c) => c.body.messageId === msgId && c.body.status === 'delivered');
    await report(wamid as string, 'read');
    await receiver.waitFor((c) => c.body.messageId === msgId && c.body.status === 'read');

    const calls = postbacksOf(msgId);
    expect(calls.map((c) => c.body.status)).toEqual(['sent', 'delivered', 'read']);
    for (const call of calls) {
      expect(call.signatureValid).toBe(true);
      expect(call.request.path).toBe('/per-trigger');
      expect(call.webhookId).toBe(`${msgId}.${call.body.status}`);
      expect(call.body).toEqual({
        type: 'message.status',
        id: `${msgId}.${call.body.status}`,
        messageId: msgId,
        botId: stack.seed.botId,
        status: call.body.status,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        error: null,
        customPayload,
      });
    }
    expect(sent[0].request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it("failed with Meta's code goes to the bot's URL when the trigger names none", async () => {
    const msgId = await trigger();
    const { providerMessageId: wamid } = await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent']);
    await report(wamid as string, 'failed', { errors: [{ code: 131026, title: 'Message undeliverable' }] });
    const [failed] = await receiver.waitFor((c) => c.body.messageId === msgId && c.body.status === 'failed');
    expect(failed.request.path).toBe('/bot-default');
    expect(failed.body).toMatchObject({ status: 'failed', error: { code: '131026', text: 'Message undeliverable' }, customPayload: null });
  });

  it("the worker's final failure (Meta refuses the send) is posted with Meta's code", async () => {
    cloud.reply({ status: 400, errorCode: 131009, errorMessage: 'Parameter value is not valid' });
    const msgId = await trigger({ customPayload: [1, 2] });
    const [failed] = await receiver.waitFor((c) => c.body.messageId === msgId && c.body.status === 'failed');
    expect(failed.body).toMatchObject({ status: 'failed', error: { code: '131009', text: expect.any(String) }, customPayload: [1, 2] });
    expect(postbacksOf(msgId).map((c) => c.body.status)).toEqual(['failed']);
  });

  it('a failing receiver is retried with backoff until it answers 2xx; the delivery log shows it and replays an entry', async () => {
    receiver.failNext(503, 500);
    const msgId = await trigger({ customPayload: 'plain string' });
    await receiver.waitFor((c) => c.body.messageId === msgId && c.body.status === 'sent');
    const attempts = receiver.calls.filter((c) => c.webhookId === `${msgId}.sent`);
    expect(attempts.map((c) => c.status)).toEqual([503, 500, 200]);

    const entry = await until(async () => {
      const log = await (await admin('GET', '/postbacks?page=1&pageSize=100')).json();
      return log.items.find((i: { id: string; deliveredAt: string | null }) => i.id === `${msgId}.sent` && i.deliveredAt);
    });
    expect(entry).toMatchObject({
      kind: 'postback',
      event: 'message.status',
      messageId: msgId,
      status: 'sent',
      attempts: 3,
      replays: 0,
      lastStatus: 200,
      lastError: null,
      url: `${receiver.baseUrl}/bot-default`,
    });

    const paged = await (await admin('GET', '/postbacks?page=1&pageSize=1')).json();
    expect(paged).toMatchObject({ status: 'success', page: 1, pageSize: 1, total: expect.any(Number) });
    expect(paged.items).toHaveLength(1);
    expect(paged.total).toBeGreaterThan(1);
    expect((await admin('GET', '/postbacks?pageSize=500')).status).toBe(400);

    const replay = await admin('POST', `/postbacks/${msgId}.sent/replay`);
    expect(replay.status).toBe(200);
    await receiver.waitFor((c) => c.webhookId === `${msgId}.sent`, 2);
    const replayed = receiver.delivered.filter((c) => c.webhookId === `${msgId}.sent`);
    expect(replayed[1].request.rawBody).toBe(replayed[0].request.rawBody);
    await until(async () => {
      const log = await (await admin('GET', '/postbacks?pageSize=100')).json();
      return log.items.find((i: { id: string; attempts: number }) => i.id === `${msgId}.sent` && i.attempts === 4);
    });
    expect((await admin('POST', `/postbacks/${msgId}.nope/replay`)).status).toBe(404);
  });

  it('the lifecycle stream carries every change; a consumer group reads and acknowledges them', async () => {
    const msgId = await trigger({ customPayload: { stream: true } });
    const { providerMessageId: wamid } = await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent']);
    await report(wamid as string, 'delivered');
    const seen: Array<Record<string, string>> = [];
    await until(async () => {
      const answer = (await redis.xreadgroup('GROUP', 'integrator', 'consumer-1', 'COUNT', 100, 'STREAMS', lifecycleKey, '>')) as Array<[string, Array<[string, string[]]>]> | null;
      for (const [id, fields] of answer?.[0][1] ?? []) {
        const entry: Record<string, string> = {};
        for (let i = 0; i < fields.length; i += 2) entry[fields[i]] = fields[i + 1];
        seen.push(entry);
        await redis.xack(lifecycleKey, 'integrator', id);
      }
      return seen.some((e) => e.messageId === msgId && e.status === 'delivered') || undefined;
    });
    const ours = seen.filter((e) => e.messageId === msgId);
    expect(ours.map((e) => e.status)).toEqual(['sent', 'delivered']);
    expect(ours[0]).toEqual({ messageId: msgId, botId: stack.seed.botId, status: 'sent', at: expect.any(String), errorCode: '', errorText: '', customPayload: '{"stream":true}' });
    expect(seen.some((e) => e.status === 'read')).toBe(true); // earlier tests' changes are there too
    const pending = (await redis.xpending(lifecycleKey, 'integrator')) as [number, ...unknown[]];
    expect(pending[0]).toBe(0);
  });

  it('refuses a customPayload over 4 KB and a config that is not an object (400 naming the field)', async () => {
    const big = await fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey },
      body: JSON.stringify({ ...carouselBody(stack.seed), config: { customPayload: { s: 'x'.repeat(4100) } } }),
    });
    expect([big.status, (await big.json()).message]).toEqual([400, expect.stringContaining('config.customPayload')]);
    const notObject = await fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey },
      body: JSON.stringify({ ...carouselBody(stack.seed), config: 'x' }),
    });
    expect([notObject.status, (await notObject.json()).message]).toEqual([400, expect.stringContaining('config')]);
  });

  it('the CLI sets, shows, lists and replays; it refuses private addresses unless allowed', async () => {
    const cli = async (argv: string[], overrides: Record<string, string> = {}) => {
      const lines: string[] = [];
      const code = await runCli(argv, (l) => lines.push(l), { ...stack.env, ...overrides });
      return { code, lines };
    };
    const refused = await cli(['postback', 'set', '--bot', stack.seed.botId, '--url', 'http://127.0.0.1:9/pb'], { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
    expect(refused.code).toBe(2);
    expect((await cli(['postback', 'set', '--bot', stack.seed.botId, '--url', `${receiver.baseUrl}/from-cli`])).code).toBe(0);
    expect((await cli(['postback', 'show', '--bot', stack.seed.botId])).lines).toEqual([`url: ${receiver.baseUrl}/from-cli`, 'signing secret: set']);
    const msgId = await trigger();
    await receiver.waitFor((c) => c.body.messageId === msgId && c.request.path === '/from-cli');
    const log = await until(async () => {
      const out = await cli(['postback', 'log', '--bot', stack.seed.botId, '--page-size', '100']);
      return out.lines.some((l) => l.startsWith(`${msgId}.sent `) && l.includes('delivered')) ? out : undefined;
    });
    expect(log.code).toBe(0);
    expect(await cli(['postback', 'replay', '--bot', stack.seed.botId, '--id', `${msgId}.sent`])).toEqual({ code: 0, lines: [`postback ${msgId}.sent queued again`] });
    await receiver.waitFor((c) => c.webhookId === `${msgId}.sent`, 2);
    expect((await cli(['postback', 'replay', '--bot', stack.seed.botId, '--id', 'nope'])).code).toBe(2);
  });

  describe('with WEBHOOK_ALLOW_PRIVATE_ADDRESSES off (the default)', () => {
    const strict = useStack({ seed: true, env: { WEBHOOK_ALLOW_HTTP: 'true' } });
    let strictToken: string;

    beforeAll(async () => {
      strictToken = (await seedBotAdmin(strict.gateway, strict.seed.botId)).accessToken;
    });

    it.each(['http://127.0.0.1:9/pb', 'http://10.1.2.3/pb', 'http://169.254.169.254/latest', 'http://[::1]:8080/pb', 'http://[::ffff:192.168.0.1]/pb', 'http://localhost/pb'])(
      'a trigger naming %s gets 400 naming config.postbackUrl; so does the admin API',
      async (postbackUrl) => {
        const res = await fetch(`${strict.url}/api/engagements/notifications/v2/push?bot=${strict.seed.botId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': strict.seed.apiKey },
          body: JSON.stringify({ ...carouselBody(strict.seed), config: { postbackUrl } }),
        });
        const body = await res.json();
        expect([res.status, body.status]).toEqual([400, 'error']);
        expect(body.message).toMatch(/^config\.postbackUrl must reach a public address/);
        const put = await fetch(`${strict.url}/v1/bots/${strict.seed.botId}/postback`, {
          method: 'PUT',
          headers: { 'x-auth-token': strictToken, 'content-type': 'application/json' },
          body: JSON.stringify({ url: postbackUrl }),
        });
        expect([put.status, (await put.json()).message]).toEqual([400, expect.stringMatching(/^url must reach a public address/)]);
        // One rule for every callback URL: the bot's webhook too.
        const webhook = await fetch(`${strict.url}/v1/bots/${strict.seed.botId}/webhook`, {
          method: 'PUT',
          headers: { 'x-auth-token': strictToken, 'content-type': 'application/json' },
          body: JSON.stringify({ url: postbackUrl }),
        });
        expect([webhook.status, (await webhook.json()).message]).toEqual([400, expect.stringMatching(/^url must reach a public address/)]);
      },
    );
  });
});
