/** Redis could not take the request (down, or slower than the command bound): nothing was queued. */
export class TransportUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The request queue is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'TransportUnavailableError';
  }
}
