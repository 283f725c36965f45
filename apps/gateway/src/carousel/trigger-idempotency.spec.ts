import 'reflect-metadata';
import type { Redis } from 'ioredis';
import type { CoreEnv, TriggerGuardEnv } from '@platform/config';
import type { MessageRepository } from '@platform/database';
import type { ProducerQueue } from '@platform/queue';
import { TriggerIdempotency } from './trigger-idempotency.js';

const env = { TRIGGER_IDEMPOTENCY_IN_FLIGHT_MS: 60_000 } as TriggerGuardEnv;
const core = { REDIS_COMMAND_TIMEOUT_MS: 200 } as CoreEnv;

function setup(opts: { jobs?: string[]; rows?: string[]; stored?: string } = {}) {
  const store = new Map<string, string>();
  const redis = {
    defineCommand: () => undefined,
    triggerKeySwap: async (key: string, expected: string, replacement: string) => {
      if (store.get(key) !== expected) return 0;
      if (replacement === '') store.delete(key);
      else store.set(key, replacement);
      return 1;
    },
  } as unknown as Redis;
  const queue = { getJob: async (id: string) => (opts.jobs?.includes(id) ? { id } : undefined) } as unknown as ProducerQueue<'carousel-dispatch'>;
  const messages = { findForBot: async (_bot: string, id: string) => (opts.rows?.includes(id) ? { id } : null) } as unknown as MessageRepository;
  const idem = new TriggerIdempotency(env, core, redis, queue, messages);
  let now = 1_000_000;
  idem.now = () => now;
  return { idem, store, advance: (ms: number) => (now += ms) };
}

const KEY = 'trigger-idem:{bot-1}:k1';

describe('TriggerIdempotency', () => {
  it('refuses a repeat with another body, whatever became of the first', async () => {
    const { idem } = setup({ jobs: ['m1'] });
    expect(await idem.repeat('bot-1', 'k1', idem.record('fp-a', 'm1'), 'fp-b', 'm2')).toEqual({ kind: 'other-body' });
  });

  it('replays the first message id once its job is in Redis, or its row in Postgres after the job was removed', async () => {
    const queued = setup({ jobs: ['m1'] });
    expect(await queued.idem.repeat('bot-1', 'k1', queued.idem.record('fp', 'm1'), 'fp', 'm2')).toEqual({ kind: 'replay', msgId: 'm1' });
    const recorded = setup({ rows: ['m1'] });
    recorded.advance(23 * 3600_000);
    expect(await recorded.idem.repeat('bot-1', 'k1', recorded.idem.record('fp', 'm1'), 'fp', 'm2')).toEqual({ kind: 'replay', msgId: 'm1' });
  });

  it('makes a repeat wait while the first may still be running, then lets it take the key over', async () => {
    const { idem, store, advance } = setup();
    const first = idem.record('fp', 'm1');
    store.set(KEY, first);
    advance(59_999);
    expect(await idem.repeat('bot-1', 'k1', first, 'fp', 'm2')).toEqual({ kind: 'in-flight' });
    advance(1);
    const outcome = await idem.repeat('bot-1', 'k1', first, 'fp', 'm2');
    expect(outcome).toMatchObject({ kind: 'retaken', msgId: 'm2' });
    expect(store.get(KEY)).toBe(outcome.kind === 'retaken' ? outcome.record : undefined);
    // A second late repeat finds the record changed under it: it waits for the one that took over.
    expect(await idem.repeat('bot-1', 'k1', first, 'fp', 'm3')).toEqual({ kind: 'in-flight' });
  });

  it('releases only its own record', async () => {
    const { idem, store } = setup();
    const mine = idem.record('fp', 'm1');
    store.set(KEY, 'someone else');
    await idem.release('bot-1', 'k1', mine);
    expect(store.get(KEY)).toBe('someone else');
    store.set(KEY, mine);
    await idem.release('bot-1', 'k1', mine);
    expect(store.has(KEY)).toBe(false);
  });
});
