/** BullMQ queue of bot replies the channel worker sends (WhatsApp session messages). */
export const ConversationQueueNames = {
  conversationReply: 'conversation-reply',
} as const;

/** Job on ConversationQueueNames.conversationReply; the job id is the message id (the row exists already). */
export interface ConversationReplyJob {
  messageId: string;
  botId: string;
}
