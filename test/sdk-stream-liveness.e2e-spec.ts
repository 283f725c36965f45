import WebSocket from 'ws';
import { createBotSession, type SessionState, type WebSocketConstructorLike } from '../libs/sdk-core/src/index.js';
import { chatUserId } from '@platform/contracts';
import { BlackHoleProxy } from './black-hole-proxy.js';
import { RawStream, SdkBot, eventually, seedSdkBot, sendBotEvent, startSession } from './sdk-support.js';
import { useStack } from './e2e-stack.js';

/** A stream whose network path dies without closing is noticed by the SDK, which reconnects and gets what it missed. */
describe('SDK event stream over a path that goes silent', () => {
  // Short enough for a quick test, long enough that a busy machine does not miss pongs.
  const PING_MS = 1000;
  const stack = useStack({ env: { SDK_STREAM_PING_INTERVAL_MS: String(PING_MS) } });
  let bot: SdkBot;
  let proxy: BlackHoleProxy;
  stack.defer(() => proxy?.close());

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway);
    proxy = await BlackHoleProxy.start(Number(new URL(stack.url).port));
  });

  it('announces the heartbeat interval in ready and sends heartbeat frames at it', async () => {
    const token = 'heartbeat_user';
    const { streamUrl } = await startSession(stack.url, bot.botId, token);
    const stream = await RawStream.connect(streamUrl, token);
    expect(stream.frames[0]).toEqual({ type: 'ready', heartbeatMs: PING_MS });
    await eventually(() => stream.frames.filter((f) => f.type === 'heartbeat').length >= 2 || undefined, 8000, 'two heartbeats');
    expect(stream.frames.filter((f) => f.type !== 'heartbeat')).toEqual([{ type: 'ready', heartbeatMs: PING_MS }]);
    await stream.close();
  });

  it('drops the silent connection, reconnects through a fresh path and receives the events sent meanwhile, once each', async () => {
    const token = 'roaming_user';
    const port = new URL(stack.url).port;
    // The phone reaches the gateway through the proxy; the proxy's port stands for its network path.
    class ThroughProxy extends WebSocket {
      constructor(address: string) {
        super(address.replace(`:${port}/`, `:${proxy.port}/`));
      }
    }
    const session = createBotSession<{ note: { n: number } }>(
      { botId: bot.botId, ymAuthenticationToken: token, version: 2 },
      {
        cloudHost: 'cloud.example.com',
        apiBaseUrl: stack.url,
        fetch,
        WebSocket: ThroughProxy as unknown as WebSocketConstructorLike,
        reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      },
    );
    const received: number[] = [];
    const states: SessionState[] = [];
    session.on('note', (data) => received.push(data.n));
    session.onStateChange((state) => states.push(state));
    const send = async (n: number) => expect((await sendBotEvent(stack.url, bot, chatUserId(token), 'note', { n })).status).toBe(202);
    try {
      await session.start();
      await eventually(() => session.state === 'open' || undefined, 5000, 'stream open');
      await send(1);
      await eventually(() => received.length === 1 || undefined, 5000, 'live event');
      const pathsBefore = proxy.connections;
      const statesBefore = states.length;

      proxy.blackHole();
      await send(2);
      await send(3);
      await eventually(() => received.length === 3 || undefined, 15_000, 'events sent while the path was dead');
      expect(received).toEqual([1, 2, 3]);
      expect(proxy.connections).toBeGreaterThan(pathsBefore); // a fresh path through the proxy
      expect(states.slice(statesBefore)).toEqual(expect.arrayContaining(['reconnecting', 'open']));
      expect(session.state).toBe('open');

      await send(4);
      await eventually(() => received.length === 4 || undefined, 5000, 'live event after reconnecting');
      expect(received).toEqual([1, 2, 3, 4]);
    } finally {
      session.closeBot();
    }
  });
});
