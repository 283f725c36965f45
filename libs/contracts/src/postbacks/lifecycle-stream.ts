import { isOneOf } from '../common/one-of.js';

/** The message statuses that are reported, to postback URLs and on the lifecycle stream. */
export const LIFECYCLE_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export const isLifecycleStatus = (value: string): value is LifecycleStatus => isOneOf(LIFECYCLE_STATUSES, value);

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

/**
 * One Redis Stream per deployment carries every message status change of every bot (consumers filter
 * on `botId`): a consumer group reads all of them without knowing which bots exist. Entry fields, all
 * strings: messageId, botId, status (sent | delivered | read | failed), at (ISO 8601), errorCode and
 * errorText (empty unless failed), customPayload (JSON text; "null" when the trigger gave none).
 */
export const DEFAULT_LIFECYCLE_STREAM_KEY = 'platform:message-lifecycle';

/** The XADD field/value list of a change. */
export function lifecycleStreamFields(change: MessageStatusChange): string[] {
  return [
    'messageId',
    change.messageId,
    'botId',
    change.botId,
    'status',
    change.status,
    'at',
    change.at,
    'errorCode',
    change.error?.code ?? '',
    'errorText',
    change.error?.text ?? '',
    'customPayload',
    JSON.stringify(change.customPayload ?? null),
  ];
}

/** A callback endpoint the platform stopped calling because every attempt failed for too long. */
export interface EndpointDisabledEvent {
  type: 'endpoint.disabled';
  botId: string;
  /** webhook | postback */
  kind: string;
  url: string;
  /** ISO 8601 */
  at: string;
  /** The last failure. */
  reason: string;
}

/**
 * The XADD field/value list of an `endpoint.disabled` event. It shares the stream with status changes
 * (whose entries have no `type` field and always a `messageId`), so one consumer group sees both.
 */
export function endpointDisabledStreamFields(event: EndpointDisabledEvent): string[] {
  return ['type', event.type, 'botId', event.botId, 'kind', event.kind, 'url', event.url, 'at', event.at, 'reason', event.reason];
}
