/** A webhook body whose envelope (`object`, `entry[].changes[].value`) is not of the shape Meta posts; the message names the part. */
export class WebhookEnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookEnvelopeError';
  }
}
