import { IntEnv } from '../env-decorators.js';

/** The carousel trigger's per-bot quota. */
export class TriggerGuardEnv {
  /** Triggers a bot may make per minute unless its own quota is set (`bot set-quota`, PUT /v1/bots/:botId/trigger-quota). */
  @IntEnv({ min: 1, max: 10_000_000 })
  TRIGGER_QUOTA_PER_MINUTE: number = 2000;
}
