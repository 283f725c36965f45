import { IntEnv } from '../env-decorators.js';

/**
 * Retries of WhatsApp sends (carousel messages and conversation replies). A transient failure (5xx,
 * timeout, network, Meta's throttling) is retried by the channel worker until the message's validity
 * ends, waiting a backoff doubled per retry from WHATSAPP_BACKOFF_MS up to WHATSAPP_BACKOFF_MAX_MS.
 * WHATSAPP_MAX_ATTEMPTS, the queues' declared job attempts (libs/queue queue-declarations), only bounds runs that crash or fail unexpectedly.
 */
export class WhatsAppRetryEnv {
  @IntEnv({ min: 1, max: 50 })
  WHATSAPP_MAX_ATTEMPTS: number = 5;

  /** First wait after a transient failure (and between runs that crash), jittered. */
  @IntEnv({ min: 1 })
  WHATSAPP_BACKOFF_MS: number = 2000;

  /** Longest wait between two tries of a transient failure. */
  @IntEnv({ min: 1 })
  WHATSAPP_BACKOFF_MAX_MS: number = 300_000;
}
