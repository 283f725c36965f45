import type { MessageStatusChange } from './postback.job.js';

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
    'messageId', change.messageId,
    'botId', change.botId,
    'status', change.status,
    'at', change.at,
    'errorCode', change.error?.code ?? '',
    'errorText', change.error?.text ?? '',
    'customPayload', JSON.stringify(change.customPayload ?? null),
  ];
}
