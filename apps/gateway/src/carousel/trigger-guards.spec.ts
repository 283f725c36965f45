import 'reflect-metadata';
import type { TriggerGuardEnv } from '@platform/config';
import type { CarouselCatalog } from '@platform/database';
import type { GateEntry, GateResult, TriggerGate } from './trigger-gate.js';
import { TriggerGuards } from './trigger-guards.js';

const env = { TRIGGER_QUOTA_PER_MINUTE: 2000 } as TriggerGuardEnv;

function setup(opts: { ownQuota?: number | null; result?: Partial<GateResult> } = {}) {
  const passed: GateEntry[] = [];
  const catalog = { triggerQuotaOfBot: async () => opts.ownQuota ?? null } as unknown as CarouselCatalog;
  const gate = {
    pass: async (entry: GateEntry): Promise<GateResult> => {
      passed.push(entry);
      return { limit: entry.limit, count: 1, resetMs: 59_001, ...opts.result };
    },
  } as unknown as TriggerGate;
  return { guards: new TriggerGuards(env, catalog, gate), passed };
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
});
