import 'reflect-metadata';
import type { Redis } from 'ioredis';
import type { CoreEnv } from '@platform/config';
import { RedisUnavailableError } from '@platform/queue';
import { CorkedTurn } from './corked-turn.js';
import { TriggerGate } from './trigger-gate.js';

const core = { REDIS_COMMAND_TIMEOUT_MS: 200 } as CoreEnv;
const turnOver = () => new Promise((r) => setImmediate(r));

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

  it('sends one batch at a time: triggers arriving meanwhile go out in the turn its answer arrives, in the same write', async () => {
    const answers: Array<() => void> = [];
    const sent: string[][] = [];
    const events: string[] = [];
    const redis = {
      stream: { cork: () => events.push('cork'), uncork: () => events.push('uncork') },
      defineCommand: () => undefined,
      triggerGate: (numKeys: number, ...rest: Array<string | number>) => {
        const keys = rest.slice(0, numKeys).map(String);
        sent.push(keys);
        events.push(`gate ${keys[0]}`);
        return new Promise((resolve) => answers.push(() => resolve([1, 60_000])));
      },
    } as unknown as Redis;
    const turn = new CorkedTurn(redis);
    const gate = new TriggerGate(core, redis, turn);
    const first = gate.pass({ botId: 'a', limit: 10 });
    await turnOver();
    expect(sent).toEqual([['trigger-quota:{a}']]);

    const later = [gate.pass({ botId: 'b', limit: 10 }), gate.pass({ botId: 'c', limit: 10 })];
    await turnOver();
    await turnOver();
    expect(sent).toHaveLength(1); // held while the first call is out

    answers[0]();
    await first;
    turn.schedule(() => events.push('job add')); // what the answered trigger does next, in the same turn
    await turnOver();
    expect(sent.slice(1)).toEqual([['trigger-quota:{b}'], ['trigger-quota:{c}']]);
    expect(events.slice(-5)).toEqual(['cork', 'gate trigger-quota:{b}', 'gate trigger-quota:{c}', 'job add', 'uncork']);
    answers.slice(1).forEach((answer) => answer());
    await Promise.all(later);
  });

  it('gives up on a Redis that does not answer within REDIS_COMMAND_TIMEOUT_MS', async () => {
    const { gate } = setup({ hangs: true });
    await expect(gate.pass({ botId: 'a', limit: 1 })).rejects.toBeInstanceOf(RedisUnavailableError);
    // The timed-out call no longer holds the triggers behind it.
    await expect(gate.pass({ botId: 'a', limit: 1 })).rejects.toBeInstanceOf(RedisUnavailableError);
  });
});
