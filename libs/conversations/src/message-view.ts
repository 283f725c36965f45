import type { ChatMessageView, ConversationMessageView, MessageContent } from '@platform/contracts';
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

/**
 * A stored message as the hosted chat page gets it: with its place in its own conversation. Never the
 * row's `seq`, which counts every message on the platform: an end user watching it grow would learn
 * the traffic of every tenant.
 */
export function toChatMessageView(row: ConversationMessageRow): ChatMessageView {
  return { ...toMessageView(row), seq: String(row.position) };
}
