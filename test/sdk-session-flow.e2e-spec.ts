import WebSocket from 'ws';
import { BotSession, type BotEvent, type BotEventMeta, type SdkError, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { SdkEventStore } from '@platform/conversations';
import { chatUserId, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '@platform/contracts';
import { BotWebhookServer } from '@platform/sandbox';
import { SdkBot, eventually, seedSdkBot, sendBotEvent } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** The SDK's BotSession against the real gateway: session start → bot webhook, bot → app events, app → bot events. */
describe('SDK session: BotSession ↔ gateway ↔ bot webhook', () => {
  const webhook = new BotWebhookServer();
  const stack = useStack({ servers: [webhook], worker: true, env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', CALLBACK_BACKOFF_MS: '50' } });
  let bot: SdkBot;
  const token = 'user_42-abcDEF';
  const payload = {
    userName: 'Ada',
    JourneySlug: 'welcome-back',
    profile: { tier: 'gold', tags: ['a', 'b'], scores: [1, 2.5, -3], nested: { ok: true, none: null, deeper: { list: [{ x: 'y' }] } } },
    quote: 'she said "hi" \\ and left',
  };

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway, `${webhook.baseUrl}/bot-hook`);
    webhook.secret = bot.secret;
  });

  function openBot(config: Partial<ConstructorParameters<typeof BotSession>[0]> = {}) {
    const session = new BotSession(
      { botId: bot.botId, ymAuthenticationToken: token, payload, version: 2, ...config },
      { cloudHost: 'cloud.example.com', apiBaseUrl: stack.url, fetch, WebSocket: WebSocket as unknown as WebSocketConstructorLike, reconnect: { initialDelayMs: 50, maxDelayMs: 200 } },
    );
    const events: Array<{ event: BotEvent; meta: BotEventMeta }> = [];
    const errors: SdkError[] = [];
    session.onEventFromBot((event, meta) => events.push({ event, meta }));
    session.onError((e) => errors.push(e));
    return { session, events, errors };
  }

  it('starts a session: the bot gets session.started, signed, with the payload as a JSON string', async () => {
    const { session, errors } = openBot();
    try {
      const started = await session.start();
      expect(started.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(started.streamUrl).toBe(`${stack.url.replace('http://', 'ws://')}/v1/bots/${bot.botId}/sessions/${started.sessionId}/stream`);
      await eventually(() => session.state === 'open' || undefined, 5000, 'stream open');

      const call = await webhook.waitFor((c) => c.body.sessionId === started.sessionId);
      expect(call.request.path).toBe('/bot-hook');
      expect(call.signatureValid).toBe(true);
      expect(call.body).toEqual({
        type: 'session.started',
        id: expect.any(String),
        botId: bot.botId,
        sessionId: started.sessionId,
        userId: chatUserId(token),
        payload: expect.any(String),
        version: 2,
        conversationId: expect.any(String), // the web conversation the bot answers into
        createdAt: expect.any(String),
      });
      expect(typeof call.body.payload).toBe('string');
      expect(JSON.parse(call.body.payload as string)).toEqual(payload);
      expect(call.decoded).toEqual(payload);
      expect(call.request.headers['x-platform-delivery']).toBe(call.body.id);
      // What a bot must refuse: the same signature over a changed body.
      const header = call.request.headers[WEBHOOK_SIGNATURE_HEADER];
      expect(verifyWebhookSignature({ secret: bot.secret, header, rawBody: call.request.rawBody })).toBe(true);
      expect(verifyWebhookSignature({ secret: bot.secret, header, rawBody: call.request.rawBody.replace('Ada', 'Eve') })).toBe(false);
      // The Standard Webhooks headers: webhook-id is the delivery id, stable across retries.
      expect(call.request.headers['webhook-id']).toBe(call.body.id);
      expect(verifyWebhookSignature({ secret: bot.secret, headers: call.request.headers, rawBody: call.request.rawBody })).toBe(true);
      expect(verifyWebhookSignature({ secret: bot.secret, headers: call.request.headers, rawBody: call.request.rawBody.replace('Ada', 'Eve') })).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      session.closeBot();
    }
  });

  it('delivers a bot event to the SDK listener and drops it once acked', async () => {
    const { session, events, errors } = openBot();
    try {
      await session.start();
      await eventually(() => session.state === 'open' || undefined, 5000, 'stream open');
      const res = await sendBotEvent(stack.url, bot, chatUserId(token), 'logout', { actionType: 'button', nested: { n: [1, 2] } });
      expect(res.status).toBe(202);
      const answer = await res.json();
      expect(answer).toEqual({ message: expect.any(String), status: 'success', eventId: expect.stringMatching(/^\d+-\d+$/), delivered: 1 });

      await eventually(() => events.length === 1 || undefined, 5000, 'event at the SDK');
      expect(events[0].event).toEqual({ code: 'logout', data: { actionType: 'button', nested: { n: [1, 2] } } });
      expect(events[0].meta).toEqual({ id: answer.eventId, platformCode: 'sendReactNativeEvent' });
      // The SDK acked it: the server dropped it.
      const store = stack.gateway.get(SdkEventStore, { strict: false });
      await eventually(async () => (await store.readAfter(bot.botId, chatUserId(token), '0-0', 10)).length === 0 || undefined, 5000, 'event dropped after ack');
      expect(errors).toEqual([]);
    } finally {
      session.closeBot();
    }
  });

  it('sends an app event to the bot webhook, signed, with data as a JSON string', async () => {
    const { session } = openBot();
    try {
      const { sessionId } = await session.start();
      const data = {
        items: 2,
        cart: [
          { sku: 'A-1', qty: 1 },
          { sku: 'B-2', qty: null },
        ],
        note: 'ünïcödé',
      };
      await session.sendEventToBot('cart-updated', data);
      const call = await webhook.waitFor((c) => c.body.type === 'app.event' && c.body.sessionId === sessionId);
      expect(call.signatureValid).toBe(true);
      expect(call.body).toEqual({
        type: 'app.event',
        id: expect.any(String),
        botId: bot.botId,
        sessionId,
        userId: chatUserId(token),
        code: 'cart-updated',
        data: JSON.stringify(data),
        createdAt: expect.any(String),
      });
      expect(call.decoded).toEqual(data);
    } finally {
      session.closeBot();
    }
  });

  it('keeps the deviceToken with the session and the session user separate per token', async () => {
    const a = openBot({ deviceToken: 'fcm-device-token-1' });
    const b = openBot({ ymAuthenticationToken: 'another_user' });
    try {
      const [sa] = await Promise.all([a.session.start(), b.session.start()]);
      await eventually(() => (a.session.state === 'open' && b.session.state === 'open') || undefined, 5000, 'both open');
      const res = await sendBotEvent(stack.url, bot, chatUserId('another_user'), 'hello', { to: 'b' });
      expect((await res.json()).delivered).toBe(1);
      await eventually(() => b.events.length === 1 || undefined, 5000, 'event at b');
      expect(a.events).toEqual([]);
      const { PrismaService } = await import('@platform/database');
      const row = await stack.gateway.get(PrismaService, { strict: false }).sdkSession.findUnique({ where: { id: sa.sessionId } });
      expect(row).toMatchObject({ deviceToken: 'fcm-device-token-1', userId: chatUserId(token), version: 2 });
      expect(JSON.stringify(row)).not.toContain(token);
    } finally {
      a.session.closeBot();
      b.session.closeBot();
    }
  });
});
