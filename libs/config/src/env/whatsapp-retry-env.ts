import { IntEnv } from '../env-decorators.js';

/** Retries of one carousel message, set by the gateway on each dispatch job it queues. */
export class WhatsAppRetryEnv {
  @IntEnv({ min: 1, max: 50 })
  WHATSAPP_MAX_ATTEMPTS: number = 5;

  /** First delay between attempts (exponential, jittered). */
  @IntEnv({ min: 1 })
  WHATSAPP_BACKOFF_MS: number = 2000;
}
