import WebSocket from 'ws';
import { BotSession, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { StreamHub } from '../apps/gateway/src/bot-events/stream-hub.service.js';
import { chatUserId } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { BotWebhookServer } from '@platform/sandbox';
import { RawStream, SdkBot, eventually, postJson, seedSdkBot, startSession } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** What the SDK endpoints refuse: 400 naming the field, 401 for bad credentials, 404/4404 for unknown sessions, 4401 on the stream. */
describe('SDK endpoints: validation and authentication errors', () => {
  const webhook = new BotWebhookServer();
  // A short auth timeout for the 4401 case, but not too short: the server's timer starts when the socket
  // opens and fires before a frame that waited in its buffer when this process (both ends) stalls, and
  // the cases that expect 4404 or ready would then see 4401 on a loaded host.
  const stack = useStack({ servers: [webhook], worker: true, env: { SDK_STREAM_AUTH_TIMEOUT_MS: '2000', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  let bot: SdkBot;
  let other: SdkBot;
  const token = 'valid_user-1';

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway, webhook.baseUrl);
    webhook.secret = bot.secret;
    other = await seedSdkBot(stack.gateway);
  });

  async function expectError(res: Response, status: number, message?: string | RegExp) {
    const body = await res.json();
    expect({ status: res.status, body }).toEqual({ status, body: { message: expect.any(String), status: 'error' } });
    if (message) expect(body.message).toMatch(message);
  }

  describe('POST /v1/bots/:botId/sessions', () => {
    const start = (body: unknown, botId = bot.botId, headers: Record<string, string> = {}) => postJson(`${stack.url}/v1/bots/${botId}/sessions`, body, headers);
    const good = { authToken: token, payload: { a: 1 }, version: 2 };

    it.each([
      ['bad characters', { ...good, authToken: 'bad token!' }, /^authToken must be 1-40 characters of A-Z a-z 0-9 _ -$/],
      ['a dot', { ...good, authToken: 'user.42' }, /^authToken must be 1-40 characters/],
      ['41 characters', { ...good, authToken: 'a'.repeat(41) }, /^authToken must be 1-40 characters/],
      ['empty token', { ...good, authToken: '' }, /^authToken must be 1-40 characters/],
      ['missing token', { payload: {}, version: 2 }, /^authToken is required$/],
      ['token not a string', { ...good, authToken: 42 }, /^authToken must be a string$/],
      ['payload an array', { ...good, payload: [1, 2] }, /^payload must be a JSON object$/],
      ['payload a string', { ...good, payload: '{"a":1}' }, /^payload must be a JSON object$/],
      ['payload missing', { authToken: token, version: 2 }, /^payload is required$/],
      ['version not an integer', { ...good, version: 2.5 }, /^version must be a positive integer$/],
      ['version a string', { ...good, version: '2' }, /^version must be a positive integer$/],
      ['version 0', { ...good, version: 0 }, /^version must be a positive integer$/],
      ['blank device token', { ...good, deviceToken: '   ' }, /^deviceToken must not be empty or blank$/],
      ['unknown field', { ...good, extra: 1 }, /extra should not exist/],
    ])('400: %s', async (_name, body, message) => {
      await expectError(await start(body), 400, message);
    });

    it('accepts exactly 40 characters of every allowed kind', async () => {
      const res = await start({ ...good, authToken: 'Az09_-'.repeat(6) + 'abcd' });
      expect(res.status).toBe(201);
    });

    it('400 for a body that is not JSON', async () => {
      await expectError(await start('authToken=x', bot.botId, { 'content-type': 'application/x-www-form-urlencoded' }), 400);
    });

    it('404 for an unknown bot', async () => {
      await expectError(await start(good, '00000000-0000-4000-8000-000000000000'), 404, /No bot/);
      await expectError(await start(good, 'not-a-uuid'), 404);
    });
  });

  describe('POST /v1/bots/:botId/events (bot API key)', () => {
    const event = (overrides: Record<string, unknown> = {}, inner: Record<string, unknown> = {}) => ({
      userId: chatUserId('events_user'),
      event: { code: 'sendReactNativeEvent', data: { code: 'logout', data: '{"actionType":"button"}', ...inner }, ...overrides },
    });
    const send = (body: unknown, key: string | null = bot.apiKey, botId = bot.botId) => postJson(`${stack.url}/v1/bots/${botId}/events`, body, key === null ? {} : { authorization: `Bearer ${key}` });

    it('202 for a good event (control)', async () => {
      expect((await send(event())).status).toBe(202);
    });

    it.each([
      ['no key', null],
      ['unknown key', 'bpk_' + 'A'.repeat(43)],
      ['malformed key', 'not-a-key'],
    ])('401: %s', async (_name, key) => {
      await expectError(await send(event(), key), 401);
    });

    it("401 for another bot's key", async () => {
      await expectError(await send(event(), other.apiKey), 401);
    });

    it.each(['sendreactnativeEvent', 'logout', 'sendReactNative', 'sendEvent', 'sendReact2Event', 'SendIosEvent'])('400: platform code %s', async (code) => {
      await expectError(await send(event({ code })), 400, /^event\.code must be a send<Platform>Event identifier/);
    });

    it.each([
      ['an object', { actionType: 'button' }, /^event\.data\.data must be a string holding a JSON object \(JSON\.stringify it\)$/],
      ['a number', 42, /^event\.data\.data must be a string holding a JSON object/],
      ['not JSON', '{actionType:button}', /^event\.data\.data must be a string holding a JSON object/],
      ['a JSON array', '[1,2]', /^event\.data\.data must be a string holding a JSON object/],
      ['a JSON string', '"button"', /^event\.data\.data must be a string holding a JSON object/],
      ['JSON null', 'null', /^event\.data\.data must be a string holding a JSON object/],
      ['missing', undefined, /^event\.data\.data is required$/],
    ])('400: inner data %s', async (_name, data, message) => {
      await expectError(await send(event({}, { data })), 400, message);
    });

    it('400 for a blank event name, a missing event and a user id that is not a chat user id', async () => {
      await expectError(await send(event({}, { code: ' ' })), 400, /^event\.data\.code must not be empty or blank$/);
      await expectError(await send({ userId: chatUserId('events_user') }), 400, /^event is required$/);
      await expectError(await send({ ...event(), userId: token }), 400, /^userId must be the app user's id/);
    });
  });

  describe('event stream (WebSocket)', () => {
    let streamUrl: string;
    let sessionId: string;
    beforeAll(async () => {
      ({ streamUrl, sessionId } = await startSession(stack.url, bot.botId, token));
    });

    async function closeCodeAfter(frames: Array<string | Buffer>, target = streamUrl) {
      const s = new RawStream(target);
      await s.opened;
      for (const f of frames) (s as unknown as { ws: WebSocket }).ws.send(f);
      return s.closed;
    }

    it('opens with the right token (control)', async () => {
      const s = await RawStream.connect(streamUrl, token);
      expect(s.frames).toEqual([{ type: 'ready', heartbeatMs: 25000 }]);
      await s.close();
    });

    it.each([
      ['a wrong token', JSON.stringify({ type: 'auth', token: 'someone_else' })],
      ['a token with bad characters', JSON.stringify({ type: 'auth', token: 'bad token!' })],
      ['a token of 41 characters', JSON.stringify({ type: 'auth', token: 'a'.repeat(41) })],
      ['no token', JSON.stringify({ type: 'auth' })],
      ['an ack first', JSON.stringify({ type: 'ack', id: '1-0' })],
      ['not JSON', 'hello'],
      ['a binary frame', Buffer.from(JSON.stringify({ type: 'auth', token }))],
    ])('closes with 4401 on %s', async (_name, frame) => {
      expect((await closeCodeAfter([frame])).code).toBe(4401);
    });

    it('closes with 4401 when no auth frame comes in time', async () => {
      const started = Date.now();
      expect((await closeCodeAfter([])).code).toBe(4401);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('closes with 4404 for an unknown session, a session of another bot and an expired session', async () => {
      const auth = JSON.stringify({ type: 'auth', token });
      const unknown = streamUrl.replace(sessionId, '00000000-0000-4000-8000-000000000000');
      expect((await closeCodeAfter([auth], unknown)).code).toBe(4404);
      expect((await closeCodeAfter([auth], streamUrl.replace(sessionId, 'nope'))).code).toBe(4404);
      expect((await closeCodeAfter([auth], streamUrl.replace(bot.botId, other.botId))).code).toBe(4404);

      const expiring = await startSession(stack.url, bot.botId, token);
      await stack.gateway.get(PrismaService, { strict: false }).sdkSession.update({ where: { id: expiring.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await closeCodeAfter([auth], expiring.streamUrl)).code).toBe(4404);
    });

    it('the SDK starts a new session by itself when its session is gone (4404 on reconnect)', async () => {
      const session = new BotSession(
        { botId: bot.botId, ymAuthenticationToken: token, payload: { again: true }, version: 2 },
        { cloudHost: 'cloud.example.com', apiBaseUrl: stack.url, fetch, WebSocket: WebSocket as unknown as WebSocketConstructorLike, reconnect: { initialDelayMs: 20, maxDelayMs: 50 } },
      );
      try {
        const first = await session.start();
        await eventually(() => session.state === 'open' || undefined, 5000, 'open');
        await stack.gateway.get(PrismaService, { strict: false }).sdkSession.delete({ where: { id: first.sessionId } });
        // Drop the connection server-side, as a restarting replica would.
        for (const c of stack.gateway.get(StreamHub, { strict: false }).connections()) if (c.sessionId === first.sessionId) c.close(1012, 'restart');
        const second = await eventually(() => (session.sessionId && session.sessionId !== first.sessionId ? session.sessionId : undefined), 5000, 'new session');
        await eventually(() => session.state === 'open' || undefined, 5000, 'open again');
        const call = await webhook.waitFor((c) => c.body.sessionId === second);
        expect(call.decoded).toEqual({ again: true });
      } finally {
        session.closeBot();
      }
    });
  });

  describe('POST /v1/bots/:botId/sessions/:sessionId/events (chat token)', () => {
    let sessionId: string;
    beforeAll(async () => {
      ({ sessionId } = await startSession(stack.url, bot.botId, token));
    });
    const appEvent = (body: unknown, auth: string | null = `Bearer ${token}`, sid = sessionId, botId = bot.botId) =>
      postJson(`${stack.url}/v1/bots/${botId}/sessions/${sid}/events`, body, auth === null ? {} : { authorization: auth });

    it('202 with the right chat token (control)', async () => {
      const res = await appEvent({ code: 'ping', data: {} });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ message: expect.any(String), status: 'success', eventId: expect.any(String) });
    });

    it.each([
      ['no Authorization', null],
      ['a wrong chat token', 'Bearer someone_else'],
      ['a malformed chat token', 'Bearer bad!token'],
      ['no Bearer scheme', token],
      ['an API key', 'API_KEY'],
    ])('401: %s', async (_name, auth) => {
      await expectError(await appEvent({ code: 'ping' }, auth === 'API_KEY' ? `Bearer ${bot.apiKey}` : auth), 401);
    });

    it('401 comes before body validation', async () => {
      await expectError(await appEvent({ data: [] }, 'Bearer someone_else'), 401);
    });

    it('404 for an unknown session', async () => {
      await expectError(await appEvent({ code: 'ping' }, `Bearer ${token}`, '00000000-0000-4000-8000-000000000000'), 404);
    });

    it('400 naming the field', async () => {
      await expectError(await appEvent({ code: 'ping', data: [1] }), 400, /^data must be a JSON object$/);
      await expectError(await appEvent({ code: '  ' }), 400, /^code must not be empty or blank$/);
      await expectError(await appEvent({ data: {} }), 400, /^code is required$/);
    });

    it('409 when the bot has no webhook', async () => {
      const s = await startSession(stack.url, other.botId, token);
      await expectError(await appEvent({ code: 'ping' }, `Bearer ${token}`, s.sessionId, other.botId), 409, /no webhook/);
    });
  });
});
