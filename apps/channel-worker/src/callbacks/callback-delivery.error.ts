/** A callback attempt that did not get a 2xx answer: BullMQ retries it with backoff. */
export class CallbackDeliveryError extends Error {
  override name = 'CallbackDeliveryError';
}
