import { ThrottleScope } from './cloud-api-answer.js';

/** Meta's pair rate: about one message every 6 s from one sender to one recipient. */
export const PAIR_DELAY_MS = 6000;
/** First wait after a number's throughput answer (130429) and after an account/app limit (80007, 4), doubled on each repeat. */
export const SENDER_BACKOFF_MS = 1000;
export const ACCOUNT_BACKOFF_MS = 5000;
export const MAX_THROTTLE_BACKOFF_MS = 300_000;

/**
 * How long a message waits after its `throttles`-th throttling answer (1 for the first): Meta's hint
 * when it gave one, else about 6 s for the pair rate and an exponential backoff for the number's and
 * the account's limits, each with up to 25 % jitter so waiting messages do not return together.
 */
export function throttleDelayMs(scope: ThrottleScope, throttles: number, retryAfterMs?: number, random = Math.random): number {
  const jitter = (ms: number) => Math.round(ms * (1 + 0.25 * random()));
  if (retryAfterMs !== undefined) return Math.max(retryAfterMs, 1) + Math.round(250 * random());
  if (scope === 'pair') return jitter(PAIR_DELAY_MS);
  const base = scope === 'sender' ? SENDER_BACKOFF_MS : ACCOUNT_BACKOFF_MS;
  return jitter(Math.min(base * 2 ** Math.max(0, throttles - 1), MAX_THROTTLE_BACKOFF_MS));
}
