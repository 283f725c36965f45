import { HttpError, ProtocolError, SessionError, ValidationError } from '../errors';
import { recordingFetch } from '../testing/recording-fetch.spec-helper';
import type { WebSocketLike } from '../transport/websocket-like';
import { BotSession, type BotSessionOptions } from './bot-session';

/** Records the sockets the session opens; never connects. */
class FakeSocket implements WebSocketLike {
  static opened: FakeSocket[] = [];
  readyState = 0;
  closedWith: number | undefined;
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(): void {}
  close(code?: number): void {
    this.closedWith = code;
  }
}

const config = { botId: 'x1', ymAuthenticationToken: 'chat_tok', payload: { userName: 'Ada', tier: 2 }, deviceToken: 'fcm-1' };
const started = { status: 201, body: { sessionId: 's/1', streamUrl: 'wss://cloud.example.com/v1/stream/s1' } };

function session(answers: Array<{ status: number; body?: unknown }>, options: Partial<BotSessionOptions> = {}, botConfig: object = config) {
  const recorder = recordingFetch(answers);
  const bot = new BotSession(botConfig as typeof config, { cloudHost: 'cloud.example.com', fetch: recorder.fetch, WebSocket: FakeSocket, ...options });
  return { bot, calls: recorder.calls };
}

beforeEach(() => {
  FakeSocket.opened = [];
});

describe('BotSession', () => {
  it('starts a session with { authToken, payload, version, deviceToken } and opens the stream', async () => {
    const { bot, calls } = session([started]);
    await expect(bot.start()).resolves.toEqual({ sessionId: 's/1', streamUrl: 'wss://cloud.example.com/v1/stream/s1' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('https://cloud.example.com/v1/bots/x1/sessions');
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.headers.Authorization).toBeUndefined();
    expect(calls[0].body).toEqual({ authToken: 'chat_tok', payload: { userName: 'Ada', tier: 2 }, version: 2, deviceToken: 'fcm-1' });
    expect(FakeSocket.opened.map((s) => s.url)).toEqual(['wss://cloud.example.com/v1/stream/s1']);
    expect(bot.sessionId).toBe('s/1');
    expect(bot.state).toBe('connecting');
  });

  it('leaves deviceToken out when the config has none, and uses the region host', async () => {
    const { bot, calls } = session([started], {}, { botId: 'x1', ymAuthenticationToken: 'chat_tok', customBaseUrl: 'https://r2.cloud.example.com' });
    await bot.start();
    expect(calls[0].url).toBe('https://r2.cloud.example.com/v1/bots/x1/sessions');
    expect(calls[0].body).toEqual({ authToken: 'chat_tok', payload: {}, version: 2 });
  });

  it('returns the running session when start is called again', async () => {
    const { bot, calls } = session([started]);
    const [a, b] = await Promise.all([bot.start(), bot.start()]);
    await bot.start();
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('sendEventToBot POSTs { code, data } to the session events path with the chat token', async () => {
    const { bot, calls } = session([started, { status: 202 }]);
    await bot.start();
    await bot.sendEventToBot('cart-updated', { items: [{ sku: 'a', qty: 2 }] });
    expect(calls[1].url).toBe('https://cloud.example.com/v1/bots/x1/sessions/s%2F1/events');
    expect(calls[1].init.method).toBe('POST');
    expect(calls[1].init.headers).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer chat_tok' });
    expect(calls[1].body).toEqual({ code: 'cart-updated', data: { items: [{ sku: 'a', qty: 2 }] } });
  });

  it('sendEventToBot defaults data to {} and refuses bad arguments before any request', async () => {
    const { bot, calls } = session([started, { status: 204 }]);
    await expect(bot.sendEventToBot('x')).rejects.toBeInstanceOf(SessionError);
    await bot.start();
    await expect(bot.sendEventToBot(' ')).rejects.toMatchObject({ field: 'code', rule: 'blank' });
    await expect(bot.sendEventToBot('x', { f: () => 1 })).rejects.toMatchObject({ field: 'data', rule: 'function', path: 'data.f' });
    await expect(bot.sendEventToBot('x', [] as unknown as Record<string, unknown>)).rejects.toMatchObject({ field: 'data', rule: 'plainObject' });
    expect(calls).toHaveLength(1);
    await bot.sendEventToBot('ping');
    expect(calls[1].body).toEqual({ code: 'ping', data: {} });
  });

  it('sendEventToBot before start is a notStarted SessionError', async () => {
    const { bot, calls } = session([]);
    await expect(bot.sendEventToBot('x', {})).rejects.toMatchObject({ name: 'SessionError', reason: 'notStarted' });
    expect(calls).toHaveLength(0);
  });

  it('needs the chat auth token and a valid config', () => {
    expect(() => session([], {}, { botId: 'x1' })).toThrow(expect.objectContaining({ field: 'ymAuthenticationToken', rule: 'required' }));
    expect(() => session([], {}, { botId: 'x1', ymAuthenticationToken: 'bad token' })).toThrow(ValidationError);
  });

  it('rejects with HttpError when the platform refuses the session', async () => {
    const { bot } = session([{ status: 401, body: { message: 'invalid chat auth token', status: 'error' } }]);
    await expect(bot.start()).rejects.toMatchObject({ name: 'HttpError', status: 401, serverMessage: 'invalid chat auth token' });
    expect(bot.state).toBe('closed');
    expect(FakeSocket.opened).toHaveLength(0);
  });

  it.each([
    [{ sessionId: 's1' }],
    [{ streamUrl: 'wss://cloud.example.com/s' }],
    [{ sessionId: '', streamUrl: 'wss://cloud.example.com/s' }],
    [{ sessionId: 's1', streamUrl: '/relative/stream' }],
    [{ sessionId: 's1', streamUrl: 'https://cloud.example.com/s' }],
    [{ sessionId: 's1', streamUrl: 'ws://cloud.example.com/s' }],
    [[]],
  ])('refuses the session answer %j', async (body) => {
    const { bot } = session([{ status: 201, body }]);
    await expect(bot.start()).rejects.toBeInstanceOf(ProtocolError);
    expect(FakeSocket.opened).toHaveLength(0);
  });

  it('accepts ws:// only when the API itself is plain http', async () => {
    const { bot } = session([{ status: 201, body: { sessionId: 's1', streamUrl: 'ws://127.0.0.1:9/s' } }], { apiBaseUrl: 'http://127.0.0.1:9' });
    await expect(bot.start()).resolves.toMatchObject({ streamUrl: 'ws://127.0.0.1:9/s' });
  });

  it('closeBot closes the stream; reloadBot starts a new session', async () => {
    const { bot, calls } = session([started, { status: 201, body: { sessionId: 's2', streamUrl: 'wss://cloud.example.com/v1/stream/s2' } }]);
    await bot.start();
    bot.closeBot();
    expect(FakeSocket.opened[0].closedWith).toBe(1000);
    expect(bot.state).toBe('closed');
    expect(bot.sessionId).toBeNull();
    await expect(bot.reloadBot()).resolves.toMatchObject({ sessionId: 's2' });
    expect(calls).toHaveLength(2);
    expect(FakeSocket.opened.map((s) => s.url)).toEqual(['wss://cloud.example.com/v1/stream/s1', 'wss://cloud.example.com/v1/stream/s2']);
  });

  it('does not open a stream when closeBot comes while the session is starting', async () => {
    const { bot } = session([started]);
    const starting = bot.start();
    bot.closeBot();
    await starting;
    expect(FakeSocket.opened).toHaveLength(0);
    expect(bot.state).toBe('closed');
  });

  it('builds its web-view URL from the validated config', () => {
    const { bot } = session([]);
    expect(bot.webViewUrl()).toMatch(/^https:\/\/cloud\.example\.com\/web\/bot\?botId=x1&version=2&enableSpeech=false#ymAuthenticationToken=chat_tok&payload=.+$/);
  });

  it('reports HttpError type for sendEventToBot failures', async () => {
    const { bot } = session([started, { status: 404, body: { message: 'no such session', status: 'error' } }]);
    await bot.start();
    await expect(bot.sendEventToBot('x')).rejects.toBeInstanceOf(HttpError);
  });
});
