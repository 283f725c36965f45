/** The caller's deadline passed without an answer; a consumer that takes the request later drops it. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly pattern: string,
    readonly timeoutMs: number,
  ) {
    super(`${pattern}: no answer within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}
