/** FCM's limit on a message's payload (data keys and values; for notification messages, with title and body). */
export const FCM_PAYLOAD_MAX_BYTES = 4096;

/** Keys the platform sets in every notification's data (the SDK reads them when a notification is tapped). */
export const PLATFORM_DATA_KEYS = ['botId', 'journeySlug'] as const;

const RESERVED_WORDS = new Set(['from', 'notification', 'message_type', 'collapse_key']);

/** Why FCM would refuse `key` as a data key, or null when it is fine. */
export function reservedDataKeyProblem(key: string): string | null {
  if (key === '') return 'data keys must not be empty';
  if (RESERVED_WORDS.has(key.toLowerCase())) return `data.${key} is a reserved FCM key`;
  if (/^(google|gcm)/i.test(key)) return `data.${key} is reserved: FCM refuses keys starting with "google" or "gcm"`;
  if ((PLATFORM_DATA_KEYS as readonly string[]).includes(key)) {
    return `data.${key} is set by the platform; use the ${key === 'botId' ? 'route' : 'journeySlug field'} instead`;
  }
  return null;
}

/** The `data` of the FCM message: botId, journeySlug when given, then the caller's extra keys (all strings). */
export function buildFcmData(botId: string, journeySlug: string | null | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, botId, ...(journeySlug ? { journeySlug } : {}) };
}

/** Bytes FCM counts for a data map: UTF-8 keys plus values. */
export function fcmDataBytes(data: Record<string, string>): number {
  let n = 0;
  for (const [k, v] of Object.entries(data)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  return n;
}

/** Checks a notification's content against FCM's rules; the message names the field, or null when valid. */
export function fcmPayloadProblem(input: { botId: string; title: string; body: string; journeySlug?: string | null; data?: Record<string, unknown> | null }): string | null {
  const extra = input.data ?? {};
  for (const [key, value] of Object.entries(extra)) {
    const problem = reservedDataKeyProblem(key);
    if (problem) return problem;
    if (typeof value !== 'string') return `data.${key} must be a string (FCM data values are strings)`;
  }
  const data = buildFcmData(input.botId, input.journeySlug, extra as Record<string, string>);
  const dataBytes = fcmDataBytes(data);
  if (dataBytes > FCM_PAYLOAD_MAX_BYTES) {
    return `data is ${dataBytes} bytes with botId and journeySlug; FCM allows at most ${FCM_PAYLOAD_MAX_BYTES}`;
  }
  const total = dataBytes + Buffer.byteLength(input.title) + Buffer.byteLength(input.body);
  if (total > FCM_PAYLOAD_MAX_BYTES) {
    return `title, body and data are ${total} bytes together; FCM allows at most ${FCM_PAYLOAD_MAX_BYTES}`;
  }
  return null;
}
