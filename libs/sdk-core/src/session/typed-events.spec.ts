import type { BotEventMeta } from '../events/bot-event';
import { FakeWebSocket } from '../testing/fake-websocket.spec-helper';
import { recordingFetch } from '../testing/recording-fetch.spec-helper';
import { BotSession, createBotSession } from './bot-session';

// This file is type-checked by ts-jest: an `@ts-expect-error` line that compiles fails the suite.

type ShopEvents = {
  'order.updated': { orderId: string; total: number };
  logout: { actionType: 'button' | 'menu' };
};

interface DeclaredAsInterface {
  'cart.cleared': { reason?: string };
}

const started = { status: 201, body: { sessionId: 's1', streamUrl: 'wss://cloud.example.com/v1/stream/s1' } };
const config = { botId: 'x1', ymAuthenticationToken: 'tok' };

function options() {
  return { cloudHost: 'cloud.example.com', fetch: recordingFetch([started]).fetch, WebSocket: FakeWebSocket };
}

function frame(id: string, code: string, data: object) {
  return { type: 'event', id, event: { code: 'sendReactNativeEvent', data: { code, data: JSON.stringify(data) } } };
}

beforeEach(() => FakeWebSocket.reset());

describe('typed bot events', () => {
  it('types data by event name and refuses names the map does not hold', () => {
    const bot = createBotSession<ShopEvents>(config, options());
    const typed: BotSession<ShopEvents> = bot;
    typed.on('order.updated', (data, meta: BotEventMeta) => {
      const id: string = data.orderId;
      const total: number = data.total;
      return [id, total, meta.id];
    });
    typed.on('logout', (data) => {
      const kind: 'button' | 'menu' = data.actionType;
      return kind;
    });
    // @ts-expect-error a name missing from the declared map is refused (typo protection)
    typed.on('order.deleted', () => undefined);
    // @ts-expect-error data members are typed: orderId is a string
    typed.on('order.updated', (data) => data.orderId.toFixed());
    // @ts-expect-error members the map does not declare are refused
    typed.on('logout', (data) => data.userId);

    const fromInterface = createBotSession<DeclaredAsInterface>(config, options());
    fromInterface.on('cart.cleared', (data) => data.reason?.toUpperCase());
    // @ts-expect-error event data must be an object, as on the wire
    createBotSession<{ count: number }>(config, options());
  });

  it('accepts any name without a map, with data of unknown members', () => {
    const bot = createBotSession(config, options());
    bot.on('anything.at.all', (data) => {
      const value: unknown = data.whatever;
      // @ts-expect-error members are unknown until checked
      const text: string = data.whatever;
      return [value, text];
    });
    const plain = new BotSession(config, options());
    plain.on('other', (data) => Object.keys(data));
  });

  it('calls a name listener only for its name, with the decoded data and meta', async () => {
    const bot = createBotSession<ShopEvents>(config, options());
    const orders: Array<[string, string]> = [];
    const logouts: string[] = [];
    const remove = bot.on('order.updated', (data, meta) => orders.push([data.orderId, meta.id]));
    bot.on('logout', (data) => logouts.push(data.actionType));
    await bot.start();
    const socket = FakeWebSocket.last;
    socket.open();
    socket.receive({ type: 'ready', heartbeatMs: 25_000 });
    socket.receive(frame('e1', 'order.updated', { orderId: 'o-1', total: 3 }));
    socket.receive(frame('e2', 'logout', { actionType: 'menu' }));
    socket.receive(frame('e3', 'unknown.event', {}));
    remove();
    socket.receive(frame('e4', 'order.updated', { orderId: 'o-2', total: 4 }));
    expect(orders).toEqual([['o-1', 'e1']]);
    expect(logouts).toEqual(['menu']);
    expect(socket.sent.filter((f) => f.type === 'ack').map((f) => f.id)).toEqual(['e1', 'e2', 'e3', 'e4']);
    bot.closeBot();
  });
});
