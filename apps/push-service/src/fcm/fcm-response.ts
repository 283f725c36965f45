import type { Http2Response } from './http2-pool.js';

/** What one FCM answer means for the device and the notification. */
export type FcmVerdict =
  | { kind: 'sent'; name: string }
  /** The token is gone for good: mark the device dead. */
  | { kind: 'invalid'; reason: 'UNREGISTERED' | 'SENDER_ID_MISMATCH' | 'INVALID_TOKEN'; text: string }
  /** Try again later; `afterMs` is FCM's Retry-After when it sent one; `quota` for 429. */
  | { kind: 'retry'; reason: string; afterMs?: number; quota: boolean }
  /** The access token was refused: mint a new one and try again. */
  | { kind: 'unauthenticated'; text: string }
  /** FCM refuses the project's credentials (API disabled, no permission): no message of this notification can go. */
  | { kind: 'config'; reason: string; text: string }
  /** This message cannot be delivered (bad payload, APNs/web-push credentials); not the token's fault. */
  | { kind: 'failed'; reason: string; text: string };

interface FcmErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: Array<{ '@type'?: string; errorCode?: string }> };
  name?: string;
}

export function classifyFcmResponse(res: Http2Response, now = Date.now()): FcmVerdict {
  let body: FcmErrorBody | undefined;
  try {
    body = res.body ? (JSON.parse(res.body) as FcmErrorBody) : undefined;
  } catch {
    body = undefined;
  }
  if (res.status === 200) {
    return typeof body?.name === 'string' ? { kind: 'sent', name: body.name } : { kind: 'retry', reason: 'FCM answered 200 without a message name', quota: false };
  }
  const code = body?.error?.details?.find((d) => d['@type']?.endsWith('FcmError'))?.errorCode ?? body?.error?.status ?? `HTTP_${res.status}`;
  const text = body?.error?.message ?? `HTTP ${res.status}`;
  const afterMs = retryAfterMs(res.headers['retry-after'], now);

  if (code === 'UNREGISTERED') return { kind: 'invalid', reason: 'UNREGISTERED', text };
  if (code === 'SENDER_ID_MISMATCH') return { kind: 'invalid', reason: 'SENDER_ID_MISMATCH', text };
  if (code === 'INVALID_ARGUMENT' && /not a valid FCM registration token/i.test(text)) return { kind: 'invalid', reason: 'INVALID_TOKEN', text };
  if (res.status === 429 || code === 'QUOTA_EXCEEDED') return { kind: 'retry', reason: code, afterMs, quota: true };
  if (res.status >= 500 || code === 'UNAVAILABLE' || code === 'INTERNAL') return { kind: 'retry', reason: code, afterMs, quota: false };
  if (res.status === 401 && code !== 'THIRD_PARTY_AUTH_ERROR') return { kind: 'unauthenticated', text };
  if (res.status === 403 && code === 'PERMISSION_DENIED') return { kind: 'config', reason: code, text };
  return { kind: 'failed', reason: code, text };
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110), in milliseconds. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
