import { NestFastifyApplication } from '@nestjs/platform-fastify';
import WebSocket from 'ws';
import { BotSession, type BotEvent, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { StreamHub } from '../apps/gateway/src/bot-events/stream-hub.service.js';
import { chatUserId } from '@platform/contracts';
import { createTestEnv } from '@platform/testing';
import { RawStream, SdkBot, eventually, seedSdkBot, sendBotEvent, startSession } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** Two gateway replicas on one Postgres and one Redis: an event reaches the user wherever their stream is connected. */
describe('SDK events across gateway replicas', () => {
  // The default heartbeat (25 s), not a short one: this process hosts the SDK and both replicas, and the
  // SDK drops a stream silent for 2.5 heartbeats, so on a loaded host a short one turns a stall of the
  // process into a reconnect between "open" and the send (sdk-stream-liveness tests that path).
  const stack = useStack();
  let b: NestFastifyApplication;
  let urlB: string;
  let bot: SdkBot;

  beforeAll(async () => {
    ({ app: b, url: urlB } = await stack.replica());
    bot = await seedSdkBot(stack.gateway);
  });

  it('an event sent through replica A reaches a BotSession streaming from replica B', async () => {
    const token = 'replica_user_1';
    const session = new BotSession(
      { botId: bot.botId, ymAuthenticationToken: token, payload: { p: 1 }, version: 2 },
      { cloudHost: 'cloud.example.com', apiBaseUrl: urlB, fetch, WebSocket: WebSocket as unknown as WebSocketConstructorLike },
    );
    const events: BotEvent[] = [];
    session.onEventFromBot((e) => events.push(e));
    try {
      const { streamUrl } = await session.start();
      expect(streamUrl.startsWith(urlB.replace('http://', 'ws://'))).toBe(true);
      await eventually(() => session.state === 'open' || undefined, 5000, 'stream open on B');
      expect(stack.gateway.get(StreamHub, { strict: false }).connections()).toHaveLength(0);
      expect(b.get(StreamHub, { strict: false }).connections()).toHaveLength(1);

      const res = await sendBotEvent(stack.url, bot, chatUserId(token), 'logout', { actionType: 'button' }, 'sendAndroidEvent');
      expect(res.status).toBe(202);
      expect((await res.json()).delivered).toBe(1);
      await eventually(() => events.length === 1 || undefined, 5000, 'event at the SDK on B');
      expect(events[0]).toEqual({ code: 'logout', data: { actionType: 'button' } });
    } finally {
      session.closeBot();
    }
  });

  it('reaches every connection of the user, one per replica, and counts them', async () => {
    const token = 'replica_user_2';
    const s1 = await startSession(stack.url, bot.botId, token);
    const s2 = await startSession(urlB, bot.botId, token);
    const onA = await RawStream.connect(s1.streamUrl, token);
    const onB = await RawStream.connect(s2.streamUrl, token);
    try {
      const res = await sendBotEvent(urlB, bot, chatUserId(token), 'refresh', { n: 1 });
      const { eventId, delivered } = await res.json();
      expect(delivered).toBe(2);
      const [ea] = await onA.waitForEvents(1);
      const [eb] = await onB.waitForEvents(1);
      expect(ea).toEqual({ type: 'event', id: eventId, event: { code: 'sendReactNativeEvent', data: { code: 'refresh', data: '{"n":1}' } } });
      expect(eb).toEqual(ea);
    } finally {
      await onA.close();
      await onB.close();
    }
    // Closed streams stop counting: each replica clears its presence once it sees the close, well before
    // the presence TTL (2 heartbeats + 5 s: 55 s here) would, so waiting up to 10 s leaves a loaded host
    // time and expiry still cannot make this pass.
    const hubs = [stack.gateway, b].map((app) => app.get(StreamHub, { strict: false }));
    await eventually(() => hubs.every((h) => h.connections().length === 0) || undefined, 10_000, 'replicas saw the close');
    await eventually(async () => (await (await sendBotEvent(stack.url, bot, chatUserId(token), 'refresh', { n: 2 })).json()).delivered === 0 || undefined, 10_000, 'closed streams no longer counted');
  });

  it('a replica shutting down closes its streams with 1001 (the SDK reconnects) and stops counting them', async () => {
    const env = await createTestEnv();
    const c = await createGateway(env);
    const urlC = await listenGateway(c);
    const d = await createGateway(env);
    const urlD = await listenGateway(d);
    let cOpen = true;
    try {
      const other = await seedSdkBot(c);
      const token = 'replica_user_3';
      const s = await startSession(urlC, other.botId, token);
      const stream = await RawStream.connect(s.streamUrl, token);
      await c.close();
      cOpen = false;
      expect((await stream.closed).code).toBe(1001);
      const res = await sendBotEvent(urlD, other, chatUserId(token), 'later', {});
      expect(await res.json()).toMatchObject({ status: 'success', delivered: 0 });
    } finally {
      if (cOpen) await c.close();
      await d.close();
    }
  });
});
