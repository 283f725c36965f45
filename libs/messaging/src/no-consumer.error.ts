/** No consumer listens on the request queue (checked before queueing): nothing was queued. */
export class NoConsumerError extends Error {
  constructor(readonly queueName: string) {
    super(`No consumer listens on ${queueName}; nothing was queued`);
    this.name = 'NoConsumerError';
  }
}
