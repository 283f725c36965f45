import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TriggerGuardEnv } from '@platform/config';
import { CarouselCatalog } from '@platform/database';
import { TriggerGate } from './trigger-gate.js';
import { TriggerIdempotency } from './trigger-idempotency.js';

/** The quota as the RateLimit-* headers state it after this trigger. */
export interface RateState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** A claimed Idempotency-Key: released if the trigger fails before queueing. */
export interface KeyClaim {
  key: string;
  record: string;
}

export type Admission =
  | { verdict: 'go'; rate: RateState; msgId: string; claim?: KeyClaim }
  | { verdict: 'over-quota'; rate: RateState }
  | { verdict: 'replay'; rate: RateState; msgId: string }
  | { verdict: 'in-flight'; rate: RateState }
  | { verdict: 'other-body'; rate: RateState };

/**
 * What a trigger must pass before its checks and its queueing: the bot's per-minute quota (the bot's
 * own, from the catalog's memory, or TRIGGER_QUOTA_PER_MINUTE) and, when it has one, its
 * Idempotency-Key. Every authenticated trigger is charged, whatever its answer.
 */
@Injectable()
export class TriggerGuards {
  constructor(
    private readonly env: TriggerGuardEnv,
    private readonly catalog: CarouselCatalog,
    private readonly gate: TriggerGate,
    private readonly idempotency: TriggerIdempotency,
  ) {}

  /** `idempotent` only for a valid trigger that sent a key (an invalid one is charged, never claims). */
  async admit(botId: string, idempotent?: { key: string; fingerprint: string }): Promise<Admission> {
    const limit = (await this.catalog.triggerQuotaOfBot(botId)) ?? this.env.TRIGGER_QUOTA_PER_MINUTE;
    const msgId = randomUUID();
    const record = idempotent && this.idempotency.record(idempotent.fingerprint, msgId);
    const passed = await this.gate.pass({ botId, limit, claim: idempotent && { key: idempotent.key, record: record! } });
    const rate = {
      limit,
      remaining: Math.max(0, limit - passed.count),
      resetSeconds: Math.max(1, Math.ceil(passed.resetMs / 1000)),
    };
    if (passed.count > limit) return { verdict: 'over-quota', rate };
    if (!idempotent) return { verdict: 'go', rate, msgId };
    if (passed.claim === 'claimed') return { verdict: 'go', rate, msgId, claim: { key: idempotent.key, record: record! } };
    if (passed.claim === undefined || passed.claim === 'skipped') return { verdict: 'over-quota', rate };
    const outcome = await this.idempotency.repeat(botId, idempotent.key, passed.claim.existing, idempotent.fingerprint, msgId);
    switch (outcome.kind) {
      case 'replay':
        return { verdict: 'replay', rate, msgId: outcome.msgId };
      case 'retaken':
        return { verdict: 'go', rate, msgId: outcome.msgId, claim: { key: idempotent.key, record: outcome.record } };
      default:
        return { verdict: outcome.kind, rate };
    }
  }

  /** Frees the key of a trigger that failed before its message was queued. */
  release(botId: string, claim: KeyClaim): Promise<void> {
    return this.idempotency.release(botId, claim.key, claim.record);
  }
}
