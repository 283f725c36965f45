import { buildFcmData } from '@platform/contracts';

export interface PushContent {
  botId: string;
  title: string;
  body: string;
  journeySlug?: string | null;
  data?: Record<string, string>;
  priority: 'normal' | 'high';
  /** Seconds FCM keeps the message for an offline device; undefined = FCM's default (28 days). */
  ttlSeconds?: number | null;
}

const TOKEN_SLOT = '__platform_token_slot__';

/**
 * An FCM request body as the JSON before and after the token: the parts are shared by every device
 * of a batch, so only the token travels per message (to the sender threads too).
 */
export interface FcmBody {
  parts: readonly [string, string];
  token: string;
}

export function renderFcmBody(b: FcmBody): string {
  return b.parts[0] + JSON.stringify(b.token) + b.parts[1];
}

/**
 * The FCM HTTP v1 request body (`{message:{...}}`) for a token. The body is serialised once per
 * notification and batch; each device only splices its token in, which keeps fan-out cheap.
 */
export function fcmMessageTemplate(content: PushContent, now = Date.now()): (token: string) => FcmBody {
  const parts = fcmBodyParts(content, now);
  return (token: string) => ({ parts, token });
}

/** The body's JSON before and after the token (what fcmMessageTemplate splices tokens into). */
export function fcmBodyParts(content: PushContent, now = Date.now()): FcmBody['parts'] {
  const high = content.priority === 'high';
  const ttl = content.ttlSeconds ?? undefined;
  const message = {
    message: {
      token: TOKEN_SLOT,
      notification: { title: content.title, body: content.body },
      data: buildFcmData(content.botId, content.journeySlug, content.data),
      android: { priority: high ? 'HIGH' : 'NORMAL', ...(ttl !== undefined ? { ttl: `${ttl}s` } : {}) },
      apns: {
        headers: {
          'apns-priority': high ? '10' : '5',
          ...(ttl !== undefined ? { 'apns-expiration': String(ttl === 0 ? 0 : Math.floor(now / 1000) + ttl) } : {}),
        },
      },
      webpush: { headers: { Urgency: high ? 'high' : 'normal', ...(ttl !== undefined ? { TTL: String(ttl) } : {}) } },
    },
  };
  const [before, after] = JSON.stringify(message).split(JSON.stringify(TOKEN_SLOT));
  return [before, after] as const;
}
