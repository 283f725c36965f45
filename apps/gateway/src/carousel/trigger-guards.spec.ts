import 'reflect-metadata';
import type { TriggerGuardEnv } from '@platform/config';
import type { CarouselCatalog } from '@platform/database';
import type { GateEntry, GateResult, TriggerGate } from './trigger-gate.js';
import type { RepeatOutcome, TriggerIdempotency } from './trigger-idempotency.js';
import { TriggerGuards } from './trigger-guards.js';

const env = { TRIGGER_QUOTA_PER_MINUTE: 2000 } as TriggerGuardEnv;

function setup(opts: { ownQuota?: number | null; result?: Partial<GateResult>; repeat?: RepeatOutcome } = {}) {
  const passed: GateEntry[] = [];
  const released: string[] = [];
  const catalog = { triggerQuotaOfBot: async () => opts.ownQuota ?? null } as unknown as CarouselCatalog;
  const gate = {
    pass: async (entry: GateEntry): Promise<GateResult> => {
      passed.push(entry);
      return { limit: entry.limit, count: 1, resetMs: 59_001, claim: entry.claim ? 'claimed' : undefined, ...opts.result };
    },
  } as unknown as TriggerGate;
  const idempotency = {
    record: (f: string, m: string) => JSON.stringify({ f, m, t: 0 }),
    repeat: async () => opts.repeat ?? { kind: 'in-flight' },
    release: async (_bot: string, key: string) => void released.push(key),
  } as unknown as TriggerIdempotency;
  return { guards: new TriggerGuards(env, catalog, gate, idempotency), passed, released };
}

describe('TriggerGuards', () => {
  it('charges the platform default quota unless the bot has its own, and states it for the RateLimit headers', async () => {
    const { guards, passed } = setup({ result: { count: 5 } });
    const admission = await guards.admit('bot-1');
    expect(passed[0]).toEqual({ botId: 'bot-1', limit: 2000, claim: undefined });
    expect(admission).toMatchObject({ verdict: 'go', rate: { limit: 2000, remaining: 1995, resetSeconds: 60 } });

    const own = setup({ ownQuota: 3 });
    expect((await own.guards.admit('bot-1')).rate.limit).toBe(3);
    expect(own.passed[0].limit).toBe(3);
  });

  it('refuses a trigger past the quota, with nothing remaining', async () => {
    const { guards } = setup({ ownQuota: 10, result: { count: 11, resetMs: 1500 } });
    expect(await guards.admit('bot-1')).toEqual({ verdict: 'over-quota', rate: { limit: 10, remaining: 0, resetSeconds: 2 } });
    const claimed = setup({ ownQuota: 10, result: { count: 11, claim: 'skipped' } });
    expect((await claimed.guards.admit('bot-1', { key: 'k', fingerprint: 'f' })).verdict).toBe('over-quota');
  });

  it('claims the key with a record naming the message id the trigger will use', async () => {
    const { guards, passed } = setup();
    const admission = await guards.admit('bot-1', { key: 'k1', fingerprint: 'fp' });
    if (admission.verdict !== 'go') throw new Error(admission.verdict);
    expect(admission.claim).toEqual({ key: 'k1', record: passed[0].claim!.record });
    expect(JSON.parse(passed[0].claim!.record)).toMatchObject({ f: 'fp', m: admission.msgId });
  });

  it.each<[RepeatOutcome, string]>([
    [{ kind: 'replay', msgId: 'm-first' }, 'replay'],
    [{ kind: 'in-flight' }, 'in-flight'],
    [{ kind: 'other-body' }, 'other-body'],
    [{ kind: 'retaken', record: 'r2', msgId: 'm2' }, 'go'],
  ])('answers a key held by another record as TriggerIdempotency decides (%j)', async (repeat, verdict) => {
    const { guards } = setup({ repeat, result: { claim: { existing: '{"f":"fp","m":"m-first","t":0}' } } });
    const admission = await guards.admit('bot-1', { key: 'k1', fingerprint: 'fp' });
    expect(admission.verdict).toBe(verdict);
    if (repeat.kind === 'replay') expect(admission).toMatchObject({ msgId: 'm-first' });
    if (repeat.kind === 'retaken') expect(admission).toMatchObject({ msgId: 'm2', claim: { key: 'k1', record: 'r2' } });
  });
});
