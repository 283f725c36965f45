/** A failure that may pass (network, timeout, 5xx, 429): try again later. */
export class TransientPushError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransientPushError';
  }
}
