export interface BackoffOptions {
  /** Delay before the first reconnect (default 500 ms). */
  initialDelayMs: number;
  /** Upper bound of a delay (default 30 s). */
  maxDelayMs: number;
  /** Growth per failed attempt (default 2). */
  factor: number;
  /** Randomise each delay between 50% and 100% so that many clients do not reconnect in step (default true). */
  jitter: boolean;
  /** Give up after this many reconnects in a row without a `ready` frame (default: never). */
  maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: true,
  maxAttempts: Infinity,
};

/** Delay before reconnect number `attempt` (0-based). */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const delay = Math.min(options.maxDelayMs, options.initialDelayMs * Math.pow(options.factor, attempt));
  return options.jitter ? delay * (0.5 + random() / 2) : delay;
}
