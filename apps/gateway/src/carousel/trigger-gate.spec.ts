import 'reflect-metadata';
import type { Redis } from 'ioredis';
import type { CoreEnv } from '@platform/config';
import { RedisUnavailableError } from '@platform/queue';
import { CorkedTurn } from './corked-turn.js';
import { TriggerGate } from './trigger-gate.js';

const turnOver = () => new Promise((r) => setImmediate(r));

/**
 * The gate's clock (demand slices, windows), moved by the tests: a loaded host must not stretch a
 * test's "next demand slice" past the one after it.
 */
let clock = 1_000_000;
const realNow = Date.now;
beforeEach(() => {
  clock = 1_000_000;
  Date.now = () => clock;
});
afterEach(() => {
  Date.now = realNow;
});
const nextDemandSlice = () => (clock += 110);

/** A Redis whose `triggerGate` does in memory what the script does. */
/** `commandTimeoutMs`: long unless the test is about the timeout, which a loaded host could otherwise reach by itself. */
function setup(opts: { hangs?: boolean; delay?: () => Promise<void>; commandTimeoutMs?: number } = {}) {
  const core = { REDIS_COMMAND_TIMEOUT_MS: opts.commandTimeoutMs ?? 10_000 } as CoreEnv;
  const counts = new Map<string, number>();
  const calls: Array<{ key: string; corked: boolean; wanted: number; knownLeft: number }> = [];
  let corked = false;
  const redis = {
    stream: { cork: () => (corked = true), uncork: () => (corked = false) },
    defineCommand: () => undefined,
    triggerGate: async (key: string, _windowMs: number, n: number, limit: number, wanted: number, knownLeft: number) => {
      if (opts.hangs) return new Promise(() => undefined);
      await opts.delay?.();
      calls.push({ key, corked, wanted, knownLeft });
      const c = (counts.get(key) ?? 0) + n;
      const leased = Math.max(0, Math.min(wanted, limit - c));
      counts.set(key, c + leased);
      // A running window's time left: the gateway's own figure when it gave one, else the PTTL (42 s).
      return [c, c !== n && knownLeft > 0 ? knownLeft : 42_000, leased];
    },
  } as unknown as Redis;
  return { gate: new TriggerGate(core, redis, new CorkedTurn(redis)), calls, counts };
}

describe('TriggerGate', () => {
  it("makes one corked call per bot per event-loop turn, giving each trigger its place in the bot's window", async () => {
    const { gate, calls } = setup();
    const results = await Promise.all([gate.pass({ botId: 'a', limit: 10 }), gate.pass({ botId: 'b', limit: 10 }), gate.pass({ botId: 'a', limit: 10 })]);
    expect(calls.map(({ key, corked }) => ({ key, corked }))).toEqual([
      { key: 'trigger-quota:{a}', corked: true },
      { key: 'trigger-quota:{b}', corked: true },
    ]);
    expect(results).toEqual([
      { limit: 10, count: 1, resetMs: 42_000 },
      { limit: 10, count: 1, resetMs: 42_000 },
      { limit: 10, count: 2, resetMs: 42_000 },
    ]);
  });

  it("sends a turn's batch while an earlier one is still out, in one corked write with the turn's job adds", async () => {
    const answers: Array<() => void> = [];
    const sent: string[][] = [];
    const events: string[] = [];
    const redis = {
      stream: { cork: () => events.push('cork'), uncork: () => events.push('uncork') },
      defineCommand: () => undefined,
      triggerGate: (key: string) => {
        sent.push([key]);
        events.push(`gate ${key}`);
        return new Promise((resolve) => answers.push(() => resolve([1, 60_000])));
      },
    } as unknown as Redis;
    const turn = new CorkedTurn(redis);
    const gate = new TriggerGate({ REDIS_COMMAND_TIMEOUT_MS: 10_000 } as CoreEnv, redis, turn);
    const first = gate.pass({ botId: 'a', limit: 10 });
    await turnOver();
    expect(sent).toEqual([['trigger-quota:{a}']]);

    const later = [gate.pass({ botId: 'b', limit: 10 }), gate.pass({ botId: 'c', limit: 10 })];
    turn.schedule(() => events.push('job add')); // a trigger answered in this turn adds its job
    await turnOver();
    expect(sent.slice(1)).toEqual([['trigger-quota:{b}'], ['trigger-quota:{c}']]); // the first call is still out
    expect(events.slice(-5)).toEqual(['cork', 'gate trigger-quota:{b}', 'gate trigger-quota:{c}', 'job add', 'uncork']);
    answers[0]();
    await first;
    answers.slice(1).forEach((answer) => answer());
    await Promise.all(later);
  });

  it("passes a busy bot's triggers without a key on places leased by its previous call, and never beyond the limit", async () => {
    const { gate, calls } = setup();
    // 100 triggers in one turn: no lease yet (no earlier demand), one call.
    const first = await Promise.all(Array.from({ length: 100 }, () => gate.pass({ botId: 'a', limit: 5000 })));
    expect(first.at(-1)!.count).toBe(100);
    nextDemandSlice(); // the next demand slice: the last one used 100
    const second = await gate.pass({ botId: 'a', limit: 5000 });
    expect(calls).toHaveLength(2); // this call leased min(100, 5000 / 50) places after its own
    expect(second.count).toBe(101);
    const leased = await Promise.all(Array.from({ length: 100 }, () => gate.pass({ botId: 'a', limit: 5000 })));
    expect(calls).toHaveLength(2);
    expect(leased.map((r) => r.count)).toEqual(Array.from({ length: 100 }, (_, i) => 102 + i));
    expect(leased.every((r) => r.resetMs > 0 && r.resetMs <= 42_000)).toBe(true);
    // The lease is used up: the next trigger asks Redis again.
    expect((await gate.pass({ botId: 'a', limit: 5000 })).count).toBe(202);
    expect(calls).toHaveLength(3);
  });

  it('leases nothing for a small quota, and no more than is left of the window', async () => {
    const { gate, calls } = setup();
    await Promise.all(Array.from({ length: 30 }, () => gate.pass({ botId: 'small', limit: 49 })));
    nextDemandSlice();
    await gate.pass({ botId: 'small', limit: 49 });
    await gate.pass({ botId: 'small', limit: 49 });
    expect(calls).toHaveLength(3); // 49 / 50 rounds down to no lease
    const over = await Promise.all(Array.from({ length: 60 }, () => gate.pass({ botId: 'b', limit: 100 })));
    expect(over.filter((r) => r.count <= 100)).toHaveLength(60);
    nextDemandSlice();
    await gate.pass({ botId: 'b', limit: 100 }); // count 61, leases min(60, 2) = 2
    const after = await Promise.all(Array.from({ length: 40 }, () => gate.pass({ botId: 'b', limit: 100 })));
    expect(after.map((r) => r.count).slice(0, 3)).toEqual([62, 63, 64]);
    expect(after.filter((r) => r.count <= 100)).toHaveLength(39); // 61 before, 2 leased, 37 of the next call: 100
  });

  it("names the time left in a bot's window it has heard of, so the script needs no PTTL, and asks again near the window's end", async () => {
    const { gate, calls } = setup();
    await gate.pass({ botId: 'a', limit: 10 });
    expect(calls[0].knownLeft).toBe(0); // nothing heard yet: the script reads the PTTL
    const second = await gate.pass({ botId: 'a', limit: 10 });
    // Told 42,000 ms at the first call's sending: what is left of that, never more.
    expect(calls[1].knownLeft).toBeGreaterThan(41_000);
    expect(calls[1].knownLeft).toBeLessThanOrEqual(42_000);
    expect(second.resetMs).toBe(calls[1].knownLeft);
    await gate.pass({ botId: 'b', limit: 10 });
    expect(calls[2].knownLeft).toBe(0); // another bot's window is its own
  });

  it('asks for the PTTL again once less than a second is left of the window it knows', async () => {
    const { gate, calls } = setup();
    await gate.pass({ botId: 'a', limit: 10 }); // ends at 1,042,000
    clock += 41_500;
    await gate.pass({ botId: 'a', limit: 10 });
    expect(calls.map((c) => c.knownLeft)).toEqual([0, 0]);
  });

  it('gives up on a Redis that does not answer within REDIS_COMMAND_TIMEOUT_MS', async () => {
    const { gate } = setup({ hangs: true, commandTimeoutMs: 200 });
    await expect(gate.pass({ botId: 'a', limit: 1 })).rejects.toBeInstanceOf(RedisUnavailableError);
    // The timed-out call no longer holds the triggers behind it.
    await expect(gate.pass({ botId: 'a', limit: 1 })).rejects.toBeInstanceOf(RedisUnavailableError);
  });

  it("holds a bot's triggers while its lease call is out, and passes them on that lease", async () => {
    const releases: Array<() => void> = [];
    let held = false;
    const { gate, calls } = setup({ delay: () => (held ? new Promise((r) => void releases.push(r)) : Promise.resolve()) });
    await Promise.all(Array.from({ length: 100 }, () => gate.pass({ botId: 'a', limit: 5000 })));
    nextDemandSlice(); // the next demand slice: the last one used 100
    held = true;
    const asking = gate.pass({ botId: 'a', limit: 5000 }); // asks for a lease of 100
    await turnOver();
    const waiting = Array.from({ length: 50 }, () => gate.pass({ botId: 'a', limit: 5000 }));
    await turnOver();
    await turnOver();
    expect(releases).toHaveLength(1); // the lease call: none for the 50
    held = false;
    releases.forEach((release) => release());
    await asking;
    const passed = await Promise.all(waiting);
    expect(passed.map((r) => r.count)).toEqual(Array.from({ length: 50 }, (_, i) => 102 + i));
    expect(calls).toHaveLength(2); // the first turn's and the lease call
  });

  it("lets the waiting triggers ask Redis themselves when their bot's lease call times out", async () => {
    let hang = false;
    const { gate } = setup({ delay: () => (hang ? new Promise(() => undefined) : Promise.resolve()), commandTimeoutMs: 200 });
    await Promise.all(Array.from({ length: 100 }, () => gate.pass({ botId: 'a', limit: 5000 })));
    nextDemandSlice();
    hang = true;
    const asking = gate.pass({ botId: 'a', limit: 5000 });
    await turnOver();
    const waiting = gate.pass({ botId: 'a', limit: 5000 });
    await expect(asking).rejects.toBeInstanceOf(RedisUnavailableError);
    await expect(waiting).rejects.toBeInstanceOf(RedisUnavailableError); // its own call, timed out too: not waiting for ever
  });
});
