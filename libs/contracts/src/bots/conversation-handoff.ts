/**
 * A change of hands in a hosted bot's conversation, told on the lifecycle stream and to the bot's webhook:
 * `conversation.handoff` (the bot, or the handoff API, gave it to a person), `conversation.taken_over` (a
 * member took it in the console, or it was assigned), `conversation.handed_back` (back to the bot, or to a journey).
 */
export const CONVERSATION_HANDOFF_EVENTS = ['conversation.handoff', 'conversation.taken_over', 'conversation.handed_back'] as const;
export type ConversationHandoffEventType = (typeof CONVERSATION_HANDOFF_EVENTS)[number];

export interface ConversationHandoffDelivery {
  type: ConversationHandoffEventType;
  /** The event's id (the webhook-id): the same on every retry. */
  id: string;
  botId: string;
  conversationId: string;
  channel: 'web' | 'whatsapp';
  userId: string;
  /** Who did it: the bot (a handoff node), an API key (the handoff API), or a member in the console. */
  by: 'bot' | 'api' | 'member';
  /** The member, when `by` is member (or the member it was assigned to). */
  member: { userId: string; email: string } | null;
  /** handoff: the node's or the API's reason; null when none. */
  reason: string | null;
  /** handed_back: the journey it was handed to; null: back to the bot after its handoff node. */
  journeySlug: string | null;
  createdAt: string;
}

/** The XADD field/value list of the event: it shares the lifecycle stream, told apart by its `type`. */
export function conversationHandoffStreamFields(e: ConversationHandoffDelivery): string[] {
  return [
    'type',
    e.type,
    'id',
    e.id,
    'botId',
    e.botId,
    'conversationId',
    e.conversationId,
    'channel',
    e.channel,
    'by',
    e.by,
    'memberId',
    e.member?.userId ?? '',
    'reason',
    e.reason ?? '',
    'journeySlug',
    e.journeySlug ?? '',
    'at',
    e.createdAt,
  ];
}
