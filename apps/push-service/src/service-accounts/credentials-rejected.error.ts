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
