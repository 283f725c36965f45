import { IntEnv } from '../env-decorators.js';

/** The carousel trigger's per-bot quota and Idempotency-Key records. */
export class TriggerGuardEnv {
  /** Triggers a bot may make per minute unless its own quota is set (`bot set-quota`, PUT /v1/bots/:botId/trigger-quota). */
  @IntEnv({ min: 1, max: 10_000_000 })
  TRIGGER_QUOTA_PER_MINUTE: number = 2000;

  /**
   * How long an Idempotency-Key whose request has not answered yet makes a repeat wait (409); after
   * that, a repeat whose message was never queued runs again (the first request died before queueing).
   */
  @IntEnv({ min: 5000, max: 3_600_000 })
  TRIGGER_IDEMPOTENCY_IN_FLIGHT_MS: number = 60_000;
}
