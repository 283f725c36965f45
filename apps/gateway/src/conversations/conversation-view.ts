import type { Conversation } from '@platform/database';

export function toConversationView(c: Conversation) {
  return {
    id: c.id,
    botId: c.botId,
    channel: c.channel,
    userId: c.userId,
    lastInboundAt: c.lastInboundAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
  };
}
