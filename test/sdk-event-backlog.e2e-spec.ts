import WebSocket from 'ws';
import { BotSession, type BotEvent, type BotEventMeta, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { SdkEventStore } from '@platform/conversations';
import { chatUserId } from '@platform/contracts';
import { createTestEnv } from '@platform/testing';
import { RawStream, SdkBot, eventually, seedSdkBot, sendBotEvent, startSession } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** Events for a user who is not connected are kept (bounded) and delivered in order; acked ones are gone, unacked come again. */
describe('SDK event backlog: offline delivery, acks and redelivery', () => {
  const MAX = 5;
  const stack = useStack({ env: { SDK_EVENT_MAX_PER_USER: String(MAX) } });
  let bot: SdkBot;

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway);
  });

  async function send(token: string, name: string, data: object = {}) {
    const res = await sendBotEvent(stack.url, bot, chatUserId(token), name, data);
    expect(res.status).toBe(202);
    return (await res.json()) as { eventId: string; delivered: number };
  }
  const names = (events: Array<{ event: { data: { code: string } } }>) => events.map((e) => e.event.data.code);
  const stored = (token: string) => stack.gateway.get(SdkEventStore, { strict: false }).readAfter(bot.botId, chatUserId(token), '0-0', 100);

  it('delivers events sent while offline, in order, after ready; acked ones are not sent again, unacked ones are', async () => {
    const token = 'offline_user';
    const { streamUrl } = await startSession(stack.url, bot.botId, token);
    const sent = [];
    for (const name of ['first', 'second', 'third']) sent.push(await send(token, name, { name }));
    expect(sent.map((s) => s.delivered)).toEqual([0, 0, 0]);

    const one = await RawStream.connect(streamUrl, token);
    const got = await one.waitForEvents(3);
    expect(one.frames[0]).toEqual({ type: 'ready', heartbeatMs: 25000 });
    expect(names(got)).toEqual(['first', 'second', 'third']);
    expect(got.map((e) => e.id)).toEqual(sent.map((s) => s.eventId));
    expect(JSON.parse(got[1].event.data.data)).toEqual({ name: 'second' });

    one.ack(got[0].id);
    one.ack(got[1].id);
    await eventually(async () => (await stored(token)).length === 1 || undefined, 5000, 'two acks applied');
    await one.close();

    // Reconnect: only the unacked event comes again, with the same id, then new events follow it.
    const two = await RawStream.connect(streamUrl, token);
    const [again] = await two.waitForEvents(1);
    expect(again).toEqual(got[2]);
    const fourth = await send(token, 'fourth');
    expect(fourth.delivered).toBe(1);
    const both = await two.waitForEvents(2);
    expect(names(both)).toEqual(['third', 'fourth']);
    await two.close();
  });

  it('a connection that drops before acking gets the event again on the next connect', async () => {
    const token = 'flaky_user';
    const { streamUrl } = await startSession(stack.url, bot.botId, token);
    const one = await RawStream.connect(streamUrl, token);
    const { eventId } = await send(token, 'while-connected');
    const [live] = await one.waitForEvents(1);
    expect(live.id).toBe(eventId);
    await one.close(); // no ack

    const two = await RawStream.connect(streamUrl, token);
    const [redelivered] = await two.waitForEvents(1);
    expect(redelivered).toEqual(live);
    two.ack(redelivered.id);
    await eventually(async () => (await stored(token)).length === 0 || undefined, 5000, 'ack applied');
    await two.close();

    const three = await RawStream.connect(streamUrl, token);
    await send(token, 'marker');
    const [next] = await three.waitForEvents(1);
    expect(next.event.data.code).toBe('marker'); // the acked event did not come back before it
    await three.close();
  });

  it('keeps at most SDK_EVENT_MAX_PER_USER events per user, dropping the oldest', async () => {
    const token = 'busy_user';
    const { streamUrl } = await startSession(stack.url, bot.botId, token);
    for (let i = 1; i <= MAX + 2; i++) await send(token, `e${i}`);
    const stream = await RawStream.connect(streamUrl, token);
    await send(token, 'marker');
    await eventually(() => stream.events.some((e) => e.event.data.code === 'marker') || undefined, 5000, 'marker');
    expect(names(stream.events)).toEqual(['e3', 'e4', 'e5', 'e6', 'e7', 'marker']);
    await stream.close();
  });

  it('a BotSession started after events were sent receives them in order, each once', async () => {
    const token = 'late_sdk_user';
    for (const name of ['welcome', 'promo', 'logout']) await send(token, name, { name });
    const session = new BotSession(
      { botId: bot.botId, ymAuthenticationToken: token, version: 2 },
      { cloudHost: 'cloud.example.com', apiBaseUrl: stack.url, fetch, WebSocket: WebSocket as unknown as WebSocketConstructorLike },
    );
    const received: Array<[BotEvent, BotEventMeta]> = [];
    session.onEventFromBot((e, m) => received.push([e, m]));
    try {
      await session.start();
      await eventually(() => received.length === 3 || undefined, 5000, 'three events');
      expect(received.map(([e]) => e)).toEqual([
        { code: 'welcome', data: { name: 'welcome' } },
        { code: 'promo', data: { name: 'promo' } },
        { code: 'logout', data: { name: 'logout' } },
      ]);
      await eventually(async () => (await stored(token)).length === 0 || undefined, 5000, 'acked by the SDK');
    } finally {
      session.closeBot();
    }
  });

  it('drops events older than SDK_EVENT_RETENTION_SECONDS', async () => {
    const short = await createGateway(await createTestEnv({ SDK_EVENT_RETENTION_SECONDS: '1' }));
    const shortUrl = await listenGateway(short);
    try {
      const other = await seedSdkBot(short);
      const token = 'retention_user';
      const { streamUrl } = await startSession(shortUrl, other.botId, token);
      await sendBotEvent(shortUrl, other, chatUserId(token), 'stale', {});
      await new Promise((r) => setTimeout(r, 1200));
      const stream = await RawStream.connect(streamUrl, token);
      await sendBotEvent(shortUrl, other, chatUserId(token), 'fresh', {});
      await eventually(() => stream.events.length >= 1 || undefined, 5000, 'fresh event');
      expect(names(stream.events)).toEqual(['fresh']);
      await stream.close();
    } finally {
      await short.close();
    }
  });
});
