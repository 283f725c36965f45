/** Fails a request job taken after its caller's deadline: its handler is not run. */
export class RequestExpiredError extends Error {
  constructor(pattern: string, lateByMs: number) {
    super(`${pattern}: dropped, its caller stopped waiting ${lateByMs} ms ago`);
    this.name = 'RequestExpiredError';
  }
}
