import { encodeFailure } from './failure-reason.js';

/** Fails a request job with the error its handler answered, encoded for the caller (see encodeFailure). */
export class HandlerFailureError extends Error {
  constructor(error: unknown) {
    super(encodeFailure(error));
    this.name = 'HandlerFailureError';
  }
}
