/** FCM refuses the project's credentials (403 PERMISSION_DENIED, tokens refused): the notification cannot go out. */
export class FcmConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FcmConfigError';
  }
}
