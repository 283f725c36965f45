/** Google refused the service account (deleted or disabled key, wrong account): only an administrator can fix it. */
export class CredentialsRejectedError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'CredentialsRejectedError';
  }
}

/** A failure that may pass (network, timeout, 5xx, 429): try again later. */
export class TransientPushError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransientPushError';
  }
}
