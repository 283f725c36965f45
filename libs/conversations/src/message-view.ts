import type { ConversationMessageView, MessageContent } from '@platform/contracts';
import type { ConversationMessageRow } from '@platform/database';

/** A stored message as the API, the webhook and the chat page show it. */
export function toMessageView(row: ConversationMessageRow): ConversationMessageView {
  return {
    id: row.id,
    conversationId: row.conversationId,
    direction: row.direction,
    type: row.type,
    content: (row.content ?? {}) as MessageContent,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}
