/** A postback that did not get a 2xx answer: BullMQ retries it with backoff. */
export class PostbackDeliveryError extends Error {
  override name = 'PostbackDeliveryError';
}
