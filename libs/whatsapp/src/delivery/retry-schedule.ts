/** Capped exponential backoff of transient send failures: the first wait, and the longest. */
export interface Backoff {
  baseMs: number;
  capMs: number;
}

/** What to do with a message after a transient failure: wait `delayMs`, or give up because its validity ends first. */
export type RetryDecision = { kind: 'wait'; delayMs: number } | { kind: 'expired' };

/**
 * The wait before the `retry`-th try again (1 for the first): base doubled per retry up to the cap,
 * with up to 50 % jitter downward, so messages failed together do not all come back together.
 */
export function backoffDelayMs(retry: number, backoff: Backoff, random = Math.random): number {
  const full = Math.min(backoff.baseMs * 2 ** Math.min(Math.max(0, retry - 1), 40), backoff.capMs);
  return Math.max(1, Math.round(full * (1 - 0.5 * random())));
}

/** Waits `delayMs` unless the try after it would come past the deadline (ms since the epoch). */
export function retryWithin(nowMs: number, deadlineMs: number, delayMs: number): RetryDecision {
  return nowMs + delayMs > deadlineMs ? { kind: 'expired' } : { kind: 'wait', delayMs };
}

/** When a message accepted at `acceptedAtMs` stops being retried. */
export function deliveryDeadline(acceptedAtMs: number, validitySeconds: number): number {
  return acceptedAtMs + validitySeconds * 1000;
}
