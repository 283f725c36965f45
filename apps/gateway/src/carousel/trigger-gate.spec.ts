import 'reflect-metadata';
import type { Redis } from 'ioredis';
import type { CoreEnv } from '@platform/config';
import { RedisUnavailableError } from '@platform/queue';
import { CorkedTurn } from './corked-turn.js';
import { TriggerGate } from './trigger-gate.js';

const core = { REDIS_COMMAND_TIMEOUT_MS: 200 } as CoreEnv;

/** A Redis whose `triggerGate` does in memory what the script does. */
function setup(opts: { hangs?: boolean } = {}) {
  const counts = new Map<string, number>();
  const records = new Map<string, string>();
  const calls: Array<{ keys: string[]; corked: boolean }> = [];
  let corked = false;
  const redis = {
    stream: { cork: () => (corked = true), uncork: () => (corked = false) },
    defineCommand: () => undefined,
    triggerGate: async (numKeys: number, ...rest: Array<string | number>) => {
      if (opts.hangs) return new Promise(() => undefined);
      const keys = rest.slice(0, numKeys) as string[];
      const [, n, limit, , ...claims] = rest.slice(numKeys).map(String);
      calls.push({ keys, corked });
      const c = (counts.get(keys[0]) ?? 0) + Number(n);
      counts.set(keys[0], c);
      const out: Array<number | string> = [c, 42_000];
      keys.slice(1).forEach((key, i) => {
        const place = Number(claims[2 * i]);
        if (c - Number(n) + place > Number(limit)) return void out.push(0);
        const found = records.get(key);
        if (found) return void out.push(found);
        records.set(key, claims[2 * i + 1]);
        out.push(1);
      });
      return out;
    },
  } as unknown as Redis;
  return { gate: new TriggerGate(core, redis, new CorkedTurn(redis)), calls, records };
}

describe('TriggerGate', () => {
  it("makes one corked call per bot per event-loop turn, giving each trigger its place in the bot's window", async () => {
    const { gate, calls } = setup();
    const results = await Promise.all([
      gate.pass({ botId: 'a', limit: 10 }),
      gate.pass({ botId: 'b', limit: 10 }),
      gate.pass({ botId: 'a', limit: 10 }),
    ]);
    expect(calls).toEqual([
      { keys: ['trigger-quota:{a}'], corked: true },
      { keys: ['trigger-quota:{b}'], corked: true },
    ]);
    expect(results.map((r) => [r.count, r.resetMs, r.claim])).toEqual([
      [1, 42_000, undefined],
      [1, 42_000, undefined],
      [2, 42_000, undefined],
    ]);
  });

  it('claims the keys of the triggers within the quota only, and reports a key another trigger holds', async () => {
    const { gate, records } = setup();
    records.set('trigger-idem:{a}:taken', 'first record');
    const results = await Promise.all([
      gate.pass({ botId: 'a', limit: 2, claim: { key: 'k1', record: 'r1' } }),
      gate.pass({ botId: 'a', limit: 2, claim: { key: 'taken', record: 'r2' } }),
      gate.pass({ botId: 'a', limit: 2, claim: { key: 'k3', record: 'r3' } }),
    ]);
    expect(results.map((r) => r.claim)).toEqual(['claimed', { existing: 'first record' }, 'skipped']);
    expect(results.map((r) => r.count)).toEqual([1, 2, 3]);
    expect(records.get('trigger-idem:{a}:k1')).toBe('r1');
    expect(records.has('trigger-idem:{a}:k3')).toBe(false);
  });

  it('gives up on a Redis that does not answer within REDIS_COMMAND_TIMEOUT_MS', async () => {
    const { gate } = setup({ hangs: true });
    await expect(gate.pass({ botId: 'a', limit: 1 })).rejects.toBeInstanceOf(RedisUnavailableError);
  });
});
