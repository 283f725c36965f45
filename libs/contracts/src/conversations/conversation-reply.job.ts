/** BullMQ queue of bot replies the channel worker sends (WhatsApp session messages). */
export const ConversationQueueNames = {
  conversationReply: 'conversation-reply',
} as const;

/** Job on ConversationQueueNames.conversationReply; the job id is the message id (the row exists already). */
export interface ConversationReplyJob {
  /**
   * `read`: not a reply but the read receipt and typing indicator for the user's message `messageId`
   * (job id `read-<messageId>`), sent once, best effort.
   */
  kind?: 'read';
  messageId: string;
  botId: string;
  /**
   * Wamids of the Cloud API messages of the reply sent so far, in order, written by the worker right
   * after each send: a later run records them and goes on from the first part not sent.
   */
  sentParts?: string[];
  /** Transient failures so far (the worker sets it when it delays the reply for one). */
  retries?: number;
}
