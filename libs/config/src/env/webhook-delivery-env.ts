import { IntEnv } from '../env-decorators.js';

/** Calls the gateway makes to bots' webhooks. */
export class WebhookDeliveryEnv {
  /** Delivery attempts of one webhook call before it is given up (kept as a failed job). */
  @IntEnv({ min: 1, max: 50 })
  WEBHOOK_MAX_ATTEMPTS: number = 12;

  /** First delay between webhook attempts; doubles each time (12 attempts span about 2.3 h at 2000). */
  @IntEnv({ min: 1 })
  WEBHOOK_BACKOFF_MS: number = 2000;

  /** Time a bot's webhook has to answer one call. */
  @IntEnv({ min: 100 })
  WEBHOOK_TIMEOUT_MS: number = 10000;

  /** Webhook calls one gateway process makes at once. */
  @IntEnv({ min: 1, max: 1000 })
  WEBHOOK_CONCURRENCY: number = 10;
}
