/** Which limit a throttling answer of Meta is about: the number, the sender/recipient pair, or the account/app. */
export type ThrottleScope = 'sender' | 'pair' | 'account';

/** What a send attempt means for the message: sent, throttled by Meta, worth another attempt, or refused for good. */
export type SendOutcome =
  | { kind: 'sent'; providerMessageId: string }
  | { kind: 'throttled'; scope: ThrottleScope; code: string; text: string; retryAfterMs?: number }
  | { kind: 'retry'; code: string; text: string }
  | { kind: 'failed'; code: string; text: string };

/** The parts of a Graph API answer the platform reads. */
export interface CloudApiAnswer {
  messages?: Array<{ id?: string }>;
  error?: { code?: number; message?: string; error_data?: { details?: string } };
}

/** Headers of an answer that may say when to try again. */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

/**
 * Meta's throttling codes (it answers them with HTTP 400, sometimes 429): the number's throughput,
 * the pair rate (about one message every 6 s from one sender to one recipient), the WhatsApp Business
 * Account's and the app's rate limits. They say "not now", not "never".
 */
const THROTTLE_SCOPES: Record<string, ThrottleScope> = {
  '130429': 'sender',
  '131056': 'pair',
  '80007': 'account',
  '4': 'account',
};

/** A hint longer than this is taken as this: a message is not parked for hours on one answer. */
export const MAX_RETRY_HINT_MS = 3600_000;

/** What Meta's answer to POST /<phone-number-id>/messages means for the message. */
export function classifyCloudApiAnswer(status: number, payload: CloudApiAnswer | undefined, headers: AnswerHeaders = {}, now = Date.now()): SendOutcome {
  if (status >= 200 && status < 300) {
    const id = payload?.messages?.[0]?.id;
    if (id) return { kind: 'sent', providerMessageId: id };
    return { kind: 'retry', code: `http_${status}`, text: 'WhatsApp Cloud API answered without a message id' };
  }
  const code = payload?.error?.code !== undefined ? String(payload.error.code) : `http_${status}`;
  const text = payload?.error?.error_data?.details ?? payload?.error?.message ?? `HTTP ${status}`;
  const scope = status < 500 ? THROTTLE_SCOPES[code] : undefined;
  if (scope) {
    const retryAfterMs = retryHintMs(headers, now);
    return { kind: 'throttled', scope, code, text, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  // 429 and 5xx are transient; any other 4xx is a verdict on this message (bad number, template, token).
  const retryable = status === 429 || status >= 500;
  return { kind: retryable ? 'retry' : 'failed', code, text };
}

/**
 * When the answer says to try again: `Retry-After` (seconds or an HTTP date), else the largest
 * `estimated_time_to_regain_access` (minutes) of Graph's `X-Business-Use-Case-Usage`; capped at
 * MAX_RETRY_HINT_MS. Undefined when it says nothing usable.
 */
export function retryHintMs(headers: AnswerHeaders, now = Date.now()): number | undefined {
  const header = (name: string) => {
    const v = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  const retryAfter = header('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.min(Math.round(Number(retryAfter) * 1000), MAX_RETRY_HINT_MS);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.min(Math.max(at - now, 0), MAX_RETRY_HINT_MS);
  }
  const usage = header('x-business-use-case-usage');
  if (usage) {
    try {
      const byBusiness = JSON.parse(usage) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>;
      const minutes = Math.max(
        0,
        ...Object.values(byBusiness)
          .flat()
          .map((u) => Number(u?.estimated_time_to_regain_access) || 0),
      );
      if (minutes > 0) return Math.min(minutes * 60_000, MAX_RETRY_HINT_MS);
    } catch {
      /* not JSON: no hint */
    }
  }
  return undefined;
}
