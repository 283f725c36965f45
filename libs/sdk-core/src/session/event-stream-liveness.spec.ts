import type { SdkError } from '../errors';
import type { BotEvent } from '../events/bot-event';
import { FakeWebSocket } from '../testing/fake-websocket.spec-helper';
import { EventStream, type StreamState } from './event-stream';
import { ValidationError } from '../errors';
import { DEFAULT_LIVENESS, resolveLiveness, type LivenessOptions } from './liveness';
import { STREAM_CLOSE } from './protocol';

const event = (id: string, name: string) => ({
  type: 'event',
  id,
  event: { code: 'sendReactNativeEvent', data: { code: name, data: '{}' } },
});

let states: StreamState[];
let events: string[];
let errors: SdkError[];

function stream(liveness: Partial<LivenessOptions> = {}): EventStream {
  return new EventStream(
    {
      url: 'wss://cloud.example.com/stream',
      token: 'chat_tok',
      WebSocket: FakeWebSocket,
      backoff: { initialDelayMs: 100, maxDelayMs: 1000, factor: 2, jitter: false, maxAttempts: Infinity },
      liveness: { readyTimeoutMs: 5000, defaultHeartbeatMs: 4000, silenceFactor: 2.5, ...liveness },
    },
    {
      event: (e: BotEvent, meta) => void events.push(`${meta.id}:${e.code}`),
      error: (error) => void errors.push(error),
      state: (state) => void states.push(state),
      sessionGone: () => undefined,
    },
  );
}

/** Opens the current fake socket and answers the auth frame with `ready`. */
function connectReady(ready: object = { type: 'ready', heartbeatMs: 1000 }): FakeWebSocket {
  const socket = FakeWebSocket.last;
  socket.open();
  expect(socket.sent).toEqual([{ type: 'auth', token: 'chat_tok' }]);
  socket.receive(ready);
  return socket;
}

beforeEach(() => {
  jest.useFakeTimers();
  FakeWebSocket.reset();
  states = [];
  events = [];
  errors = [];
});

afterEach(() => {
  jest.useRealTimers();
});

describe('EventStream liveness (fake timers, fake WebSocket)', () => {
  it('drops a connection silent for 2.5 heartbeat intervals after ready, reconnects with backoff and re-authenticates', () => {
    const s = stream();
    s.open();
    const first = connectReady({ type: 'ready', heartbeatMs: 1000 });
    jest.advanceTimersByTime(2499);
    expect(FakeWebSocket.sockets).toHaveLength(1);
    expect(first.closeCalls).toEqual([]);

    jest.advanceTimersByTime(1);
    expect(first.closeCalls).toEqual([{ code: STREAM_CLOSE.silent, reason: 'no frame in time' }]);
    expect(states).toEqual(['connecting', 'open', 'reconnecting']);
    jest.advanceTimersByTime(99);
    expect(FakeWebSocket.sockets).toHaveLength(1);
    jest.advanceTimersByTime(1); // backoff: initialDelayMs
    expect(FakeWebSocket.sockets).toHaveLength(2);

    const second = connectReady();
    second.receive(event('e1', 'order.updated'));
    expect(events).toEqual(['e1:order.updated']);
    expect(second.sent).toContainEqual({ type: 'ack', id: 'e1' });
    expect(states[states.length - 1]).toBe('open');
    expect(errors).toEqual([]);
    s.close();
  });

  it('keeps a connection that hears heartbeats (or any other frame) within the limit', () => {
    const s = stream();
    s.open();
    const socket = connectReady({ type: 'ready', heartbeatMs: 1000 });
    for (let i = 0; i < 20; i++) {
      jest.advanceTimersByTime(2000);
      socket.receive(i % 3 === 0 ? { type: 'some-future-frame' } : i % 3 === 1 ? 'not json' : { type: 'heartbeat' });
    }
    expect(FakeWebSocket.sockets).toHaveLength(1);
    expect(socket.closeCalls).toEqual([]);
    jest.advanceTimersByTime(2500);
    expect(socket.closeCalls).toEqual([{ code: STREAM_CLOSE.silent, reason: 'no frame in time' }]);
    s.close();
  });

  it('assumes the default interval when ready does not announce one', () => {
    const s = stream({ defaultHeartbeatMs: 4000 });
    s.open();
    const socket = connectReady({ type: 'ready' });
    jest.advanceTimersByTime(9999);
    expect(socket.closeCalls).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(socket.closeCalls).toEqual([{ code: STREAM_CLOSE.silent, reason: 'no frame in time' }]);
    s.close();
  });

  it('drops a connect that never opens and an auth that is never answered with ready', () => {
    const s = stream({ readyTimeoutMs: 5000 });
    s.open();
    const neverOpens = FakeWebSocket.last;
    jest.advanceTimersByTime(4999);
    expect(neverOpens.closeCalls).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(neverOpens.closeCalls).toEqual([{ code: STREAM_CLOSE.silent, reason: 'no ready frame in time' }]);

    jest.advanceTimersByTime(100);
    const noReady = FakeWebSocket.last;
    expect(noReady).not.toBe(neverOpens);
    noReady.open();
    noReady.receive({ type: 'heartbeat' }); // frames other than ready do not count as ready
    jest.advanceTimersByTime(5000);
    expect(noReady.closeCalls).toEqual([{ code: STREAM_CLOSE.silent, reason: 'no ready frame in time' }]);

    jest.advanceTimersByTime(200); // second reconnect: backoff doubled
    expect(FakeWebSocket.sockets).toHaveLength(3);
    connectReady();
    expect(states.filter((state, i) => state !== states[i - 1])).toEqual(['connecting', 'reconnecting', 'open']);
    s.close();
  });

  it('ignores whatever a dropped socket still delivers', () => {
    const s = stream();
    s.open();
    const old = connectReady();
    jest.advanceTimersByTime(2500);
    old.receive(event('late', 'stale'));
    old.closedByPeer(1006);
    expect(events).toEqual([]);
    expect(old.sent).toEqual([{ type: 'auth', token: 'chat_tok' }]);
    jest.advanceTimersByTime(100);
    expect(FakeWebSocket.sockets).toHaveLength(2); // one reconnect, not two
    s.close();
  });

  it('stops watching on close() and on a normal close by the peer', () => {
    const s = stream();
    s.open();
    const socket = connectReady();
    s.close();
    jest.advanceTimersByTime(60_000);
    expect(FakeWebSocket.sockets).toHaveLength(1);
    expect(socket.closeCalls).toEqual([{ code: STREAM_CLOSE.normal, reason: 'closed by app' }]);

    const other = stream();
    other.open();
    const closing = connectReady();
    closing.closedByPeer(1001);
    jest.advanceTimersByTime(100);
    const next = FakeWebSocket.last;
    expect(next).not.toBe(closing);
    expect(closing.closeCalls).toEqual([]); // the old socket's watchdog did not fire later
    jest.advanceTimersByTime(4999);
    expect(next.closeCalls).toEqual([]);
    other.close();
  });

  it('has documented defaults and refuses values that would make it reconnect in a loop', () => {
    expect(DEFAULT_LIVENESS).toEqual({ readyTimeoutMs: 15_000, defaultHeartbeatMs: 25_000, silenceFactor: 2.5 });
    expect(resolveLiveness({ silenceFactor: 3 })).toEqual({ ...DEFAULT_LIVENESS, silenceFactor: 3 });
    for (const bad of [0, -1, NaN, Infinity, '5000']) {
      expect(() => resolveLiveness({ readyTimeoutMs: bad as number })).toThrow(ValidationError);
    }
    expect(() => resolveLiveness({ silenceFactor: 0 })).toThrow(expect.objectContaining({ field: 'liveness.silenceFactor', rule: 'type' }));
  });
});
