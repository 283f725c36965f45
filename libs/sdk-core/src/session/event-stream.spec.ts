import WebSocket from 'ws';
import { SdkError } from '../errors';
import type { BotEvent } from '../events/bot-event';
import { eventFrame, LoopbackPlatform, sleep, waitFor } from '../testing/loopback-platform.spec-helper';
import { BotSession, type SessionState } from './bot-session';

let platform: LoopbackPlatform;
let bot: BotSession;
let events: BotEvent[];
let errors: SdkError[];
let states: SessionState[];

beforeEach(async () => {
  platform = await LoopbackPlatform.start();
  bot = new BotSession(
    { botId: 'x1', ymAuthenticationToken: 'chat_tok', payload: { userName: 'Ada' } },
    { cloudHost: 'cloud.example.com', apiBaseUrl: platform.baseUrl, WebSocket, reconnect: { initialDelayMs: 20, maxDelayMs: 100, jitter: false } },
  );
  events = [];
  errors = [];
  states = [];
  bot.onEventFromBot((event) => events.push(event));
  bot.onError((error) => errors.push(error));
  bot.onStateChange((state) => states.push(state));
});

afterEach(async () => {
  bot.closeBot();
  await platform.stop();
});

function acks(frames: Array<Record<string, unknown>>): unknown[] {
  return frames.filter((f) => f.type === 'ack').map((f) => f.id);
}

async function startAndAuthenticate() {
  await bot.start();
  const connection = await platform.connection(platform.connections.length);
  await waitFor(() => connection.frames.length > 0, 'auth frame');
  connection.send({ type: 'ready' });
  return connection;
}

describe('BotSession event stream (real WebSocket on 127.0.0.1)', () => {
  it('authenticates with the first frame, delivers decoded events in order and acks them', async () => {
    const connection = await startAndAuthenticate();
    expect(platform.sessionRequests).toEqual([{ path: '/v1/bots/x1/sessions', body: { authToken: 'chat_tok', payload: { userName: 'Ada' }, version: 2 } }]);
    expect(connection.path).toBe('/v1/stream/s1');
    expect(connection.frames[0]).toEqual({ type: 'auth', token: 'chat_tok' });

    for (let i = 1; i <= 5; i++) connection.send(eventFrame(`e${i}`, i === 5 ? 'logout' : `step-${i}`, { n: i, actionType: 'menu' }));
    await waitFor(() => events.length === 5, 'five events');
    expect(events.map((e) => e.code)).toEqual(['step-1', 'step-2', 'step-3', 'step-4', 'logout']);
    expect(events[4]).toEqual({ code: 'logout', data: { n: 5, actionType: 'menu' } });
    await waitFor(() => acks(connection.frames).length === 5, 'five acks');
    expect(acks(connection.frames)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(bot.state).toBe('open');
    expect(errors).toEqual([]);
  });

  it('reports malformed frames to onError without throwing, acks them when they have an id, and keeps going', async () => {
    const connection = await startAndAuthenticate();
    connection.send('this is not json');
    connection.socket.send(Buffer.from('{"type":"ready"}'), { binary: true });
    connection.send({ type: 'event', event: {} });
    connection.send(eventFrame('m1', 'logout', '{not json'));
    connection.send(eventFrame('m2', 'logout', '[1,2]'));
    connection.send({ type: 'event', id: 'm3', event: { code: 'notAPlatformCode', data: { code: 'x', data: '{}' } } });
    connection.send({ type: 'future-frame', id: 'f1' });
    connection.send(eventFrame('e1', 'logout', { actionType: 'button' }));

    await waitFor(() => events.length === 1, 'the good event');
    expect(events).toEqual([{ code: 'logout', data: { actionType: 'button' } }]);
    expect(errors.map((e) => [e.name, (e as SdkError & { reason: string }).reason])).toEqual([
      ['EventDecodeError', 'notJson'],
      ['EventDecodeError', 'binaryFrame'],
      ['EventDecodeError', 'missingId'],
      ['EventDecodeError', 'dataNotJson'],
      ['EventDecodeError', 'dataNotObject'],
      ['EventDecodeError', 'badPlatformCode'],
    ]);
    await waitFor(() => acks(connection.frames).length === 4, 'acks');
    expect(acks(connection.frames)).toEqual(['m1', 'm2', 'm3', 'e1']);
    expect(bot.state).toBe('open');
  });

  it('routes a throwing listener to onError and still calls the other listeners', async () => {
    const seenBySecond: string[] = [];
    bot.onEventFromBot(() => {
      throw new Error('app bug');
    });
    bot.onEventFromBot((event) => seenBySecond.push(event.code));
    const connection = await startAndAuthenticate();
    connection.send(eventFrame('e1', 'logout', {}));
    await waitFor(() => seenBySecond.length === 1 && errors.length === 1, 'delivery and error');
    expect(errors[0]).toMatchObject({ name: 'SessionError', reason: 'listenerFailed' });
    await waitFor(() => acks(connection.frames).length === 1, 'ack');
  });

  it('reconnects after the server drops the connection, authenticates again and skips redelivered events', async () => {
    const first = await startAndAuthenticate();
    first.send(eventFrame('e1', 'one', {}));
    await waitFor(() => acks(first.frames).length === 1, 'first ack');
    first.socket.terminate();

    const second = await platform.connection(1);
    expect(second.path).toBe('/v1/stream/s1');
    await waitFor(() => second.frames.length > 0, 'auth on reconnect');
    expect(second.frames[0]).toEqual({ type: 'auth', token: 'chat_tok' });
    second.send({ type: 'ready' });
    second.send(eventFrame('e1', 'one', {}));
    second.send(eventFrame('e2', 'two', {}));
    await waitFor(() => acks(second.frames).length === 2, 'acks after reconnect');

    expect(events.map((e) => e.code)).toEqual(['one', 'two']);
    expect(acks(second.frames)).toEqual(['e1', 'e2']);
    expect(platform.sessionRequests).toHaveLength(1);
    expect(states).toEqual(['starting', 'connecting', 'open', 'reconnecting', 'open']);
  });

  it('keeps reconnecting with backoff while the server refuses to stay up', async () => {
    await startAndAuthenticate();
    for (let i = 0; i < 3; i++) (await platform.connection(i)).socket.terminate();
    const fourth = await platform.connection(3);
    await waitFor(() => fourth.frames.length > 0, 'auth');
    expect(fourth.frames[0]).toEqual({ type: 'auth', token: 'chat_tok' });
  });

  it('stops and reports unauthorized when the server closes with 4401', async () => {
    const connection = await startAndAuthenticate();
    connection.socket.close(4401, 'bad token');
    await waitFor(() => errors.length === 1, 'error');
    expect(errors[0]).toMatchObject({ name: 'SessionError', reason: 'unauthorized', closeCode: 4401 });
    await sleep(150);
    expect(platform.connections).toHaveLength(1);
    expect(bot.state).toBe('closed');
  });

  it('starts a new session when the server closes with 4404 (session gone)', async () => {
    const connection = await startAndAuthenticate();
    connection.socket.close(4404, 'expired');
    const next = await platform.connection(1);
    expect(next.path).toBe('/v1/stream/s2');
    expect(platform.sessionRequests).toHaveLength(2);
    await waitFor(() => bot.sessionId === 's2', 'new session id');
  });

  it('closeBot closes the socket with 1000 and does not reconnect', async () => {
    const connection = await startAndAuthenticate();
    bot.closeBot();
    await expect(connection.closed).resolves.toBe(1000);
    await sleep(150);
    expect(platform.connections).toHaveLength(1);
    expect(bot.state).toBe('closed');
  });

  it('reloadBot starts a new session and stream', async () => {
    const first = await startAndAuthenticate();
    await bot.reloadBot();
    await expect(first.closed).resolves.toBe(1000);
    const second = await platform.connection(1);
    expect(second.path).toBe('/v1/stream/s2');
  });
});
