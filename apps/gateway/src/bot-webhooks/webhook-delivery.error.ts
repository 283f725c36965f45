/** A webhook call that did not get a 2xx answer: BullMQ retries it with backoff. */
export class WebhookDeliveryError extends Error {
  override name = 'WebhookDeliveryError';
}
