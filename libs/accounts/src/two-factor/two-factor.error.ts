/** A two-factor enrolment step that cannot be done now (answered 400 with its message). */
export class TwoFactorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TwoFactorError';
  }
}
