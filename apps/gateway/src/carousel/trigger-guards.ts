import { Injectable } from '@nestjs/common';
import { TriggerGuardEnv } from '@platform/config';
import { CarouselCatalog } from '@platform/database';
import { GateResult, TriggerGate } from './trigger-gate.js';

/** The quota as the RateLimit-* headers state it after this trigger. */
export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface Admission {
  verdict: 'go' | 'over-quota';
  rate: RateState;
}

/**
 * What a trigger must pass before its checks and its queueing: the bot's per-minute quota (the bot's
 * own, from the catalog's memory, or TRIGGER_QUOTA_PER_MINUTE). Every authenticated trigger is charged,
 * whatever its answer.
 */
@Injectable()
export class TriggerGuards {
  constructor(
    private readonly env: TriggerGuardEnv,
    private readonly catalog: CarouselCatalog,
    private readonly gate: TriggerGate,
  ) {}

  async admit(botId: string): Promise<Admission> {
    const limit = (await this.catalog.triggerQuotaOfBot(botId)) ?? this.env.TRIGGER_QUOTA_PER_MINUTE;
    return admission(limit, await this.gate.pass({ botId, limit }));
  }

  /**
   * admit's answer without a promise when the bot's quota is held in memory and this replica holds a
   * leased place of it (a busy bot's usual case); undefined: `admit` must be awaited.
   */
  admitHeld(botId: string): Admission | undefined {
    const own = this.catalog.heldTriggerQuotaOfBot(botId);
    if (own === undefined) return undefined;
    const limit = own ?? this.env.TRIGGER_QUOTA_PER_MINUTE;
    const passed = this.gate.passOnLease({ botId, limit });
    return passed && admission(limit, passed);
  }
}

function admission(limit: number, { count, resetMs }: GateResult): Admission {
  const rate = { limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
  return { verdict: count > limit ? 'over-quota' : 'go', rate };
}
