import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { CoreEnv, SdkEnv } from '@platform/config';
import type { SdkEventStore } from '@platform/conversations';
import type { SdkSessionService } from '../sdk-sessions/sdk-session.service.js';
import type { StreamConnection } from './stream-connection.js';
import { StreamHub } from './stream-hub.service.js';

const T0 = Date.parse('2026-12-16T10:00:00Z');
const PING_MS = 20_000;
const SESSION_TTL_S = 3600;

interface FakeSubscriber {
  subscribe: jest.Mock<(name: string) => Promise<unknown>>;
  unsubscribe: jest.Mock<(name: string) => Promise<unknown>>;
  quit: jest.Mock<() => Promise<unknown>>;
  disconnect: jest.Mock<() => void>;
  emit(event: string, ...args: unknown[]): boolean;
}

/**
 * The hub's subscriber is a lazily connecting ioredis client: its commands are replaced before any is
 * sent, so it never opens a socket, and its events are emitted by the test. Store and sessions are jest.fn.
 */
function setup() {
  const store = {
    channel: (botId: string, userId: string) => `events:${botId}:${userId}`,
    markLive: jest.fn(async (..._a: unknown[]) => {}),
    markGone: jest.fn(async (..._a: unknown[]) => {}),
    readAfter: jest.fn(async () => []),
    ack: jest.fn(async () => {}),
  };
  const sessions = {
    check: jest.fn(async (_b: string, _s: string, token: string): Promise<unknown> => (token === 'good' ? { id: 'session-1', userId: 'user-1' } : 'unauthorized')),
    touch: jest.fn(async (_id: string) => {}),
  };
  const hub = new StreamHub(
    { SDK_STREAM_AUTH_TIMEOUT_MS: 5000, SDK_STREAM_PING_INTERVAL_MS: PING_MS, SDK_SESSION_TTL_SECONDS: SESSION_TTL_S } as SdkEnv,
    { REDIS_URL: 'redis://127.0.0.1:1', REDIS_COMMAND_TIMEOUT_MS: 500 } as CoreEnv,
    store as unknown as SdkEventStore,
    sessions as unknown as SdkSessionService,
  );
  const subscriber = (hub as unknown as { subscriber: FakeSubscriber }).subscriber;
  subscriber.subscribe = jest.fn(async () => 1);
  subscriber.unsubscribe = jest.fn(async () => 0);
  subscriber.quit = jest.fn(async () => 'OK');
  subscriber.disconnect = jest.fn(() => {});
  let n = 0;
  const connection = (botId = 'bot-1', userId = 'user-1') =>
    ({ id: `conn-${n++}`, botId, userId, sessionId: `session-${userId}`, pull: jest.fn(), close: jest.fn() }) as unknown as StreamConnection & { pull: jest.Mock; close: jest.Mock };
  return { hub, store, sessions, subscriber, connection };
}

describe('StreamHub', () => {
  afterEach(() => jest.useRealTimers());

  it("subscribes once per user's channel and tells that user's connections to pull on an announcement", async () => {
    const { hub, store, subscriber, connection } = setup();
    const a = connection();
    const b = connection();
    const other = connection('bot-1', 'user-2');
    await hub.deps.register(a);
    await hub.deps.register(b);
    await hub.deps.register(other);
    expect(subscriber.subscribe.mock.calls).toEqual([['events:bot-1:user-1'], ['events:bot-1:user-2']]);
    // Presence outlives two missed heartbeats.
    expect(store.markLive).toHaveBeenCalledWith('bot-1', 'user-1', a.id, PING_MS * 2 + 5000);
    expect(hub.connections()).toEqual([a, b, other]);
    subscriber.emit('message', 'events:bot-1:user-1', '1-0');
    expect([a.pull.mock.calls.length, b.pull.mock.calls.length, other.pull.mock.calls.length]).toEqual([1, 1, 0]);
    subscriber.emit('message', 'events:bot-9:nobody', '1-0');
    expect(a.pull).toHaveBeenCalledTimes(1);
  });

  it('tells every connection to pull after a reconnect, when announcements may have been missed', async () => {
    const { hub, subscriber, connection } = setup();
    const a = connection();
    const b = connection('bot-2', 'user-9');
    await hub.deps.register(a);
    await hub.deps.register(b);
    subscriber.emit('ready');
    expect([a.pull.mock.calls.length, b.pull.mock.calls.length]).toEqual([1, 1]);
  });

  it("unsubscribes when a channel's last connection goes, and clears each connection's presence", async () => {
    const { hub, store, subscriber, connection } = setup();
    const a = connection();
    const b = connection();
    await hub.deps.register(a);
    await hub.deps.register(b);
    hub.deps.unregister(a);
    await Promise.resolve();
    expect(subscriber.unsubscribe).not.toHaveBeenCalled();
    expect(store.markGone).toHaveBeenCalledWith('bot-1', 'user-1', a.id);
    hub.deps.unregister(b);
    expect(subscriber.unsubscribe).toHaveBeenCalledWith('events:bot-1:user-1');
    expect(hub.connections()).toEqual([]);
    // A later connection of the user subscribes again.
    await hub.deps.register(connection());
    expect(subscriber.subscribe).toHaveBeenCalledTimes(2);
  });

  it('lets go of a connection whose subscription fails, and passes the error on', async () => {
    const { hub, store, subscriber, connection } = setup();
    subscriber.subscribe.mockRejectedValueOnce(new Error('connection lost'));
    const a = connection();
    await expect(hub.deps.register(a)).rejects.toThrow();
    expect(hub.connections()).toEqual([]);
    expect(subscriber.unsubscribe).toHaveBeenCalledWith('events:bot-1:user-1');
    expect(store.markLive).not.toHaveBeenCalled();
    expect(store.markGone).toHaveBeenCalledWith('bot-1', 'user-1', a.id);
  });

  it('gives up on a subscription that does not answer in time', async () => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate'] });
    const { hub, subscriber, connection } = setup();
    subscriber.subscribe.mockReturnValueOnce(new Promise(() => {}));
    const caught = hub.deps.register(connection()).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(500);
    expect(((await caught) as Error).message).toMatch(/subscribing to the user events timed out after 500 ms/);
    expect(hub.connections()).toEqual([]);
  });

  it('keeps presence on every heartbeat and slides the session at most every quarter of its TTL', async () => {
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate'] });
    const { hub, store, sessions, connection } = setup();
    const a = connection();
    await hub.deps.register(a);
    await hub.deps.heartbeat(a);
    expect(store.markLive).toHaveBeenCalledTimes(2);
    expect(sessions.touch).not.toHaveBeenCalled();
    jest.setSystemTime(T0 + SESSION_TTL_S * 250 - 1);
    await hub.deps.heartbeat(a);
    expect(sessions.touch).not.toHaveBeenCalled();
    jest.setSystemTime(T0 + SESSION_TTL_S * 250);
    await hub.deps.heartbeat(a);
    expect(sessions.touch).toHaveBeenCalledWith('session-user-1');
    await hub.deps.heartbeat(a);
    expect(sessions.touch).toHaveBeenCalledTimes(1);
  });

  it('authenticates a stream with its chat token, touching the session; a refused token is passed on', async () => {
    const { hub, sessions } = setup();
    await expect(hub.deps.authenticate('bot-1', 'session-1', 'good')).resolves.toEqual({ userId: 'user-1' });
    expect(sessions.touch).toHaveBeenCalledWith('session-1');
    await expect(hub.deps.authenticate('bot-1', 'session-1', 'bad')).resolves.toBe('unauthorized');
    expect(sessions.touch).toHaveBeenCalledTimes(1);
  });

  it('closes every connection with 1001 on shutdown, clearing presence, once', async () => {
    const { hub, store, subscriber, connection } = setup();
    const a = connection();
    const b = connection('bot-2', 'user-2');
    await hub.deps.register(a);
    await hub.deps.register(b);
    store.markGone.mockRejectedValueOnce(new Error('Redis down'));
    await hub.beforeApplicationShutdown();
    expect(a.close).toHaveBeenCalledWith(1001, 'server shutting down');
    expect(b.close).toHaveBeenCalledWith(1001, 'server shutting down');
    expect(store.markGone).toHaveBeenCalledTimes(2);
    expect(subscriber.quit).toHaveBeenCalledTimes(1);
    await hub.beforeApplicationShutdown();
    expect(subscriber.quit).toHaveBeenCalledTimes(1);
  });
});
