import { outgoingCallsEnv } from './outgoing-calls-env.js';

/**
 * Calls the gateway makes to bots' webhooks: WEBHOOK_MAX_ATTEMPTS (12, spanning about 2.3 h with the
 * backoff), WEBHOOK_BACKOFF_MS (2000), WEBHOOK_TIMEOUT_MS (10000), WEBHOOK_CONCURRENCY (10 per gateway process).
 */
export class WebhookDeliveryEnv extends outgoingCallsEnv('WEBHOOK', { maxAttempts: 12, backoffMs: 2000, timeoutMs: 10000, concurrency: 10 }) {}
