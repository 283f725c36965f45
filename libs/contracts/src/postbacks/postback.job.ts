/** The message statuses that are reported, to postback URLs and on the lifecycle stream. */
export const LIFECYCLE_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export function isLifecycleStatus(value: string): value is LifecycleStatus {
  return (LIFECYCLE_STATUSES as readonly string[]).includes(value);
}

/** One status change of one message, as the point that recorded it saw it. */
export interface MessageStatusChange {
  messageId: string;
  botId: string;
  status: LifecycleStatus;
  /** ISO 8601: when the change happened (Meta's time for receipts). */
  at: string;
  /** Meta's (or the platform's) code and text when `status` is failed. */
  error: { code: string | null; text: string } | null;
  /** Where the postback goes: the trigger's config.postbackUrl, else the bot's; null: no postback. */
  postbackUrl: string | null;
  /** The trigger's config.customPayload, echoed back; null when it gave none. */
  customPayload: unknown;
}

/** Body POSTed to a postback URL (its bytes are what is signed). */
export interface PostbackBody {
  type: 'message.status';
  /** Same as the webhook-id header: `<messageId>.<status>`. */
  id: string;
  messageId: string;
  botId: string;
  status: LifecycleStatus;
  timestamp: string;
  error: { code: string | null; text: string } | null;
  customPayload: unknown;
}

/** The postback id of a message's status: stable, so a duplicate report is one delivery. */
export function postbackId(messageId: string, status: LifecycleStatus): string {
  return `${messageId}.${status}`;
}

export function postbackBody(change: MessageStatusChange): PostbackBody {
  return {
    type: 'message.status',
    id: postbackId(change.messageId, change.status),
    messageId: change.messageId,
    botId: change.botId,
    status: change.status,
    timestamp: change.at,
    error: change.error,
    customPayload: change.customPayload ?? null,
  };
}
