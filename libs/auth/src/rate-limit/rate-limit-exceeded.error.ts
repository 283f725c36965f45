/** A limit was reached; the window it counts in ends in `retryAfterSeconds`. */
export class RateLimitExceededError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many requests; retry in ${retryAfterSeconds} s`);
    this.name = 'RateLimitExceededError';
  }
}
