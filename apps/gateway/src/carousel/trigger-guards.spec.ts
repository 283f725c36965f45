import 'reflect-metadata';
import type { TriggerGuardEnv } from '@platform/config';
import type { CarouselCatalog } from '@platform/database';
import type { GateEntry, GateResult, TriggerGate } from './trigger-gate.js';
import { TriggerGuards } from './trigger-guards.js';

const env = { TRIGGER_QUOTA_PER_MINUTE: 2000 } as TriggerGuardEnv;

interface Options {
  ownQuota?: number | null;
  result?: Partial<GateResult>;
  /** The catalog holds the bot's quota in memory (heldTriggerQuotaOfBot answers). */
  quotaHeld?: boolean;
  /** Places this replica holds leased (passOnLease answers), counted from `result`'s count. */
  leased?: number;
}

function setup(opts: Options = {}) {
  const passed: GateEntry[] = [];
  const onLease: GateEntry[] = [];
  let leased = opts.leased ?? 0;
  const catalog = {
    triggerQuotaOfBot: async () => opts.ownQuota ?? null,
    heldTriggerQuotaOfBot: () => (opts.quotaHeld ? (opts.ownQuota ?? null) : undefined),
  } as unknown as CarouselCatalog;
  const result = (entry: GateEntry): GateResult => ({ limit: entry.limit, count: 1, resetMs: 59_001, ...opts.result });
  const gate = {
    pass: async (entry: GateEntry): Promise<GateResult> => {
      passed.push(entry);
      return result(entry);
    },
    passOnLease: (entry: GateEntry): GateResult | undefined => {
      if (leased === 0) return undefined;
      leased--;
      onLease.push(entry);
      return result(entry);
    },
  } as unknown as TriggerGate;
  return { guards: new TriggerGuards(env, catalog, gate), passed, onLease };
}

describe('TriggerGuards', () => {
  it('charges the platform default quota unless the bot has its own, and states it for the RateLimit headers', async () => {
    const { guards, passed } = setup({ result: { count: 5 } });
    const admission = await guards.admit('bot-1');
    expect(passed[0]).toEqual({ botId: 'bot-1', limit: 2000 });
    expect(admission).toEqual({ verdict: 'go', rate: { limit: 2000, remaining: 1995, resetSeconds: 60 } });

    const own = setup({ ownQuota: 3 });
    expect((await own.guards.admit('bot-1')).rate.limit).toBe(3);
    expect(own.passed[0].limit).toBe(3);
  });

  it('admits the last place of the window and refuses the next, with nothing remaining', async () => {
    expect(await setup({ ownQuota: 10, result: { count: 10 } }).guards.admit('bot-1')).toMatchObject({ verdict: 'go', rate: { remaining: 0 } });
    const { guards } = setup({ ownQuota: 10, result: { count: 11, resetMs: 1500 } });
    expect(await guards.admit('bot-1')).toEqual({ verdict: 'over-quota', rate: { limit: 10, remaining: 0, resetSeconds: 2 } });
  });

  describe('admitHeld: the same answer without a promise, or undefined', () => {
    it('admits on a leased place when the quota is held, with the rate admit would state', async () => {
      const { guards, onLease, passed } = setup({ ownQuota: 10, quotaHeld: true, leased: 1, result: { count: 10, resetMs: 1500 } });
      expect(guards.admitHeld('bot-1')).toEqual({ verdict: 'go', rate: { limit: 10, remaining: 0, resetSeconds: 2 } });
      expect(onLease).toEqual([{ botId: 'bot-1', limit: 10 }]);
      expect(passed).toEqual([]);
      const awaited = setup({ ownQuota: 10, result: { count: 10, resetMs: 1500 } });
      expect(await awaited.guards.admit('bot-1')).toEqual({ verdict: 'go', rate: { limit: 10, remaining: 0, resetSeconds: 2 } });
    });

    it('charges the platform default when the held quota is the default (null), and refuses past it', () => {
      const { guards, onLease } = setup({ ownQuota: null, quotaHeld: true, leased: 1, result: { count: 2001 } });
      expect(guards.admitHeld('bot-1')).toMatchObject({ verdict: 'over-quota', rate: { limit: 2000, remaining: 0 } });
      expect(onLease[0].limit).toBe(2000);
    });

    it('answers undefined, charging nothing, when the quota is not held or no place is leased', () => {
      const notHeld = setup({ ownQuota: 10, leased: 1 });
      expect(notHeld.guards.admitHeld('bot-1')).toBeUndefined();
      expect(notHeld.onLease).toEqual([]);
      const noLease = setup({ ownQuota: 10, quotaHeld: true, leased: 0 });
      expect(noLease.guards.admitHeld('bot-1')).toBeUndefined();
      expect(noLease.passed).toEqual([]);
    });
  });
});
