/** Redis could not be asked: requests are refused rather than let through unlimited. */
export class RateLimiterUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Rate limiting is unavailable (Redis is unreachable); try again later', { cause });
    this.name = 'RateLimiterUnavailableError';
  }
}
