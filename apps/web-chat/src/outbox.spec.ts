import { ChatApiError } from './chat-api.error.js';
import { MAX_ATTEMPTS, Outbox, Outgoing } from './outbox.js';

class MemoryStorage {
  readonly values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
}

/** A server stand-in: answers each send when told to, in the order it chooses. */
function harness(options: { online?: boolean; storage?: MemoryStorage } = {}) {
  const storage = options.storage ?? new MemoryStorage();
  let online = options.online ?? true;
  let n = 0;
  const received: string[] = [];
  const changes: Array<[string, string, string | undefined]> = [];
  let fail: ((item: Outgoing) => Error | undefined) | undefined;
  let inFlight = 0;
  const outbox = new Outbox({
    storage,
    storageKey: 'k',
    isOnline: () => online,
    newId: () => `c${++n}`,
    wait: () => Promise.resolve(),
    changed: (item, id) => changes.push([item.text, item.state, id]),
    send: async (item) => {
      inFlight++;
      try {
        await new Promise((r) => setTimeout(r, 1)); // answers arrive later, never in the same tick
        const error = fail?.(item);
        if (error) throw error;
        received.push(`${item.clientId}:${item.text}`);
        return { messageId: `m-${item.clientId}` };
      } finally {
        inFlight--;
      }
    },
  });
  // Quiet means nothing is on the wire and nothing waits that could go now; a fixed pause lost to a loaded host.
  const quiet = () => inFlight === 0 && !outbox.list().some((i) => i.state === 'sending' || (online && i.state === 'pending'));
  const settle = async () => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
      if (quiet()) {
        await new Promise((r) => setImmediate(r));
        if (quiet()) return;
      }
    }
    throw new Error('the outbox did not settle within 10 s');
  };
  return {
    outbox,
    settle,
    storage,
    received,
    changes,
    setOnline: (value: boolean) => (online = value),
    failWith: (f: typeof fail) => (fail = f),
  };
}

describe('Outbox', () => {
  it('sends rapid messages one at a time, in the order typed', async () => {
    const h = harness();
    for (const text of ['one', 'two', 'three', 'four']) h.outbox.add(text);
    await h.settle();
    expect(h.received).toEqual(['c1:one', 'c2:two', 'c3:three', 'c4:four']);
    expect(h.outbox.list()).toEqual([]);
    expect(h.changes.filter(([, , id]) => id).map(([text, , id]) => `${text}=${id}`)).toEqual(['one=m-c1', 'two=m-c2', 'three=m-c3', 'four=m-c4']);
  });

  it('keeps what was typed offline, in storage, and sends it in order once back online', async () => {
    const h = harness({ online: false });
    h.outbox.add('first');
    h.outbox.add('second');
    await h.settle();
    expect(h.received).toEqual([]);
    expect(h.outbox.list().map((i) => i.state)).toEqual(['pending', 'pending']);
    expect(JSON.parse(h.storage.getItem('k')!).map((i: Outgoing) => i.text)).toEqual(['first', 'second']);
    h.setOnline(true);
    await h.outbox.resume();
    await h.settle();
    expect(h.received).toEqual(['c1:first', 'c2:second']);
    expect(JSON.parse(h.storage.getItem('k')!)).toEqual([]);
  });

  it('after a reload, sends again what was being sent, with the same id (the server records it once)', async () => {
    const storage = new MemoryStorage();
    storage.setItem('k', JSON.stringify([{ clientId: 'old-1', text: 'was in flight', createdAt: '2026-01-01T00:00:00Z', state: 'sending' }]));
    const h = harness({ storage });
    expect(h.outbox.list()[0].state).toBe('pending');
    await h.outbox.resume();
    await h.settle();
    expect(h.received).toEqual(['old-1:was in flight']);
  });

  it('marks a message the server refuses as failed at once, goes on with the next, and retry sends it again', async () => {
    const h = harness();
    h.failWith((item) => (item.text === 'bad' ? new ChatApiError(400, 'text must be at most 4096 characters') : undefined));
    h.outbox.add('bad');
    h.outbox.add('good');
    await h.settle();
    expect(h.received).toEqual(['c2:good']);
    expect(h.outbox.list()).toMatchObject([{ text: 'bad', state: 'failed', error: 'text must be at most 4096 characters' }]);
    h.failWith(undefined);
    h.outbox.retry('c1');
    await h.settle();
    expect(h.received).toEqual(['c2:good', 'c1:bad']);
  });

  it(`retries network and server errors while online, and shows failed after ${MAX_ATTEMPTS} attempts`, async () => {
    const h = harness();
    let attempts = 0;
    h.failWith(() => (attempts++, new TypeError('Failed to fetch')));
    h.outbox.add('flaky');
    await h.settle();
    expect(attempts).toBe(MAX_ATTEMPTS);
    expect(h.outbox.list()).toMatchObject([{ state: 'failed' }]);

    const h2 = harness();
    let tries = 0;
    h2.failWith(() => (++tries < 3 ? new ChatApiError(503, 'busy') : undefined));
    h2.outbox.add('eventually');
    await h2.settle();
    expect(h2.received).toEqual(['c1:eventually']);
  });

  it('waits, without failing, when the connection drops during a send', async () => {
    const h = harness();
    h.failWith(() => (h.setOnline(false), new TypeError('Failed to fetch')));
    h.outbox.add('cut off');
    await h.settle();
    expect(h.outbox.list()).toMatchObject([{ state: 'pending' }]);
    h.failWith(undefined);
    h.setOnline(true);
    await h.outbox.resume();
    await h.settle();
    expect(h.received).toEqual(['c1:cut off']);
  });
});
