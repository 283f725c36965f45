import { SdkError } from './sdk-error';

/** The platform answered an HTTP request with a non-2xx status. */
export class HttpError extends SdkError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}
