import { Injectable } from '@nestjs/common';
import { TriggerGuardEnv } from '@platform/config';
import { CarouselCatalog } from '@platform/database';
import { TriggerGate } from './trigger-gate.js';

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
    const passed = await this.gate.pass({ botId, limit });
    const rate = {
      limit,
      remaining: Math.max(0, limit - passed.count),
      resetSeconds: Math.max(1, Math.ceil(passed.resetMs / 1000)),
    };
    return { verdict: passed.count > limit ? 'over-quota' : 'go', rate };
  }
}
