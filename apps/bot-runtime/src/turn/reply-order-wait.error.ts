/**
 * A WhatsApp reply cannot be handed over yet: an earlier reply of its conversation is still being
 * sent, and WhatsApp shows messages in the order they were sent. The turn waits (delayed), not failed.
 */
export class ReplyOrderWaitError extends Error {
  constructor(readonly conversationId: string) {
    super(`conversation ${conversationId}: an earlier reply is still being sent`);
    this.name = 'ReplyOrderWaitError';
  }
}
