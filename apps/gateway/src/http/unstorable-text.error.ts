/** A JSON body holding text the platform cannot keep (unstorableTextIn): answered 400 with what and where. */
export class UnstorableTextError extends Error {
  readonly statusCode = 400;

  constructor(problem: string) {
    super(problem);
    this.name = 'UnstorableTextError';
  }
}
