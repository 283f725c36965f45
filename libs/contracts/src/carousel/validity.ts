/**
 * How long a message may keep being retried through transient failures (Cloud API 5xx, timeouts,
 * network errors, throttling) after it was accepted; past it the message fails with code `expired`.
 * The default is Twilio's queue limit; a trigger sets its own with `config.validitySeconds`.
 */
export const DEFAULT_VALIDITY_SECONDS = 4 * 3600;
export const MIN_VALIDITY_SECONDS = 60;
export const MAX_VALIDITY_SECONDS = 24 * 3600;

/** The error code of a message whose validity ran out before a send went through. */
export const EXPIRED_ERROR_CODE = 'expired';
