import 'reflect-metadata';
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import type { StoredEvent } from '@platform/conversations';
import { StreamConnection, StreamDeps } from './stream-connection.js';

class FakeSocket extends EventEmitter {
  sent: unknown[] = [];
  closedWith?: { code: number; reason: string };
  pings = 0;
  terminated = false;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code: number, reason: string) {
    this.closedWith = { code, reason };
    this.emit('close');
  }
  ping() {
    this.pings++;
  }
  terminate() {
    this.terminated = true;
  }
  frame(value: unknown, binary = false) {
    this.emit('message', Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), binary);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 5));
const ev = (id: string, name: string): StoredEvent => ({ id, event: { code: 'sendIosEvent', data: { code: name, data: '{}' } } });

function setup(overrides: Partial<StreamDeps> = {}, backlog: StoredEvent[] = []) {
  const socket = new FakeSocket();
  const calls: string[] = [];
  const store = [...backlog];
  const deps: StreamDeps = {
    authTimeoutMs: 10_000,
    pingIntervalMs: 10_000,
    authenticate: async (_b, _s, token) => (token === 'good' ? { userId: 'u1' } : 'unauthorized'),
    register: async () => void calls.push('register'),
    unregister: () => void calls.push('unregister'),
    heartbeat: async () => void calls.push('heartbeat'),
    read: async (_b, _u, cursor, count) => store.filter((e) => cursor === '0-0' || Number(e.id.split('-')[0]) > Number(cursor.split('-')[0])).slice(0, count),
    ack: async (_b, _u, id) => void calls.push(`ack ${id}`),
    log: () => undefined,
    ...overrides,
  };
  const connection = new StreamConnection(socket as unknown as WebSocket, 'bot', 'session', deps);
  return { socket, connection, calls, store };
}

describe('StreamConnection', () => {
  it('sends ready after registering, then the backlog in order, then only newer events', async () => {
    const { socket, connection, calls, store } = setup({}, [ev('1-0', 'a'), ev('2-0', 'b')]);
    socket.frame({ type: 'auth', token: 'good' });
    await tick();
    expect(calls).toEqual(['register']);
    expect(socket.sent).toEqual([
      { type: 'ready', heartbeatMs: 10_000 },
      { type: 'event', ...ev('1-0', 'a') },
      { type: 'event', ...ev('2-0', 'b') },
    ]);
    store.push(ev('3-0', 'c'));
    connection.pull();
    await tick();
    expect(socket.sent.slice(3)).toEqual([{ type: 'event', ...ev('3-0', 'c') }]);
    socket.frame({ type: 'ack', id: '1-0' });
    socket.frame({ type: 'future-frame' });
    await tick();
    expect(calls).toEqual(['register', 'ack 1-0']);
    connection.close(1000, 'bye');
    expect(calls).toEqual(['register', 'ack 1-0', 'unregister']);
  });

  it.each([
    ['a wrong token', { type: 'auth', token: 'bad' }, false],
    ['a non-auth first frame', { type: 'ack', id: '1-0' }, false],
    ['text that is not JSON', 'nope', false],
    ['a binary frame', { type: 'auth', token: 'good' }, true],
  ])('closes with 4401 on %s', async (_name, frame, binary) => {
    const { socket, calls } = setup();
    socket.frame(frame, binary);
    await tick();
    expect(socket.closedWith?.code).toBe(4401);
    expect(socket.sent).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('closes with 4401 when the auth frame is late', async () => {
    const { socket } = setup({ authTimeoutMs: 20 });
    await new Promise((r) => setTimeout(r, 60));
    expect(socket.closedWith?.code).toBe(4401);
  });

  it('closes with 4404 for a gone session and 1011 when the check fails', async () => {
    const gone = setup({ authenticate: async () => 'gone' });
    gone.socket.frame({ type: 'auth', token: 'good' });
    await tick();
    expect(gone.socket.closedWith?.code).toBe(4404);
    const failing = setup({ authenticate: async () => Promise.reject(new Error('db down')) });
    failing.socket.frame({ type: 'auth', token: 'good' });
    await tick();
    expect(failing.socket.closedWith?.code).toBe(1011);
  });

  it('unregisters a connection that closed while registering, without sending ready', async () => {
    let release!: () => void;
    const { socket, calls } = setup({ register: () => new Promise<void>((r) => (release = r)) });
    socket.frame({ type: 'auth', token: 'good' });
    await tick();
    socket.emit('close');
    release();
    await tick();
    expect(socket.sent).toEqual([]);
    expect(calls).toEqual(['unregister']);
  });

  it('pings on each heartbeat and drops a connection that did not answer the previous ping', async () => {
    const { socket, calls } = setup({ pingIntervalMs: 20 });
    socket.frame({ type: 'auth', token: 'good' });
    // Waits for the outcome rather than a fixed time: a loaded host may run both heartbeats late.
    while (!socket.terminated) await tick();
    // One ping (the first heartbeat), unanswered: the second heartbeat dropped the connection instead of pinging again.
    expect(socket.pings).toBe(1);
    expect(calls).toContain('heartbeat');
    // Apps cannot see pings: each heartbeat is also a frame, at the interval 'ready' announced.
    expect(socket.sent).toEqual([{ type: 'ready', heartbeatMs: 20 }, { type: 'heartbeat' }]);
    expect(calls[calls.length - 1]).toBe('unregister');
  });
});
