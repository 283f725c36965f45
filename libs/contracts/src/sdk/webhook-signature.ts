import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { POSTBACK_HEADERS, verifyPostbackSignature } from '../callbacks/standard-webhook-signature.js';

/**
 * Webhook calls to bots are signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, like postbacks) and, so that bots written against the earlier scheme keep
 * working, also Stripe-style:
 * `x-platform-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * The timestamp is signed with the body, so a captured call cannot be replayed after the tolerance.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'x-platform-signature';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new signing secret (shown once to the bot owner, stored sealed). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

function hmacHex(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * The header value for `rawBody` (exactly the bytes sent) at `timestamp` (unix seconds); one `v1=`
 * per secret while a rotation keeps two valid.
 */
export function signWebhookBody(secret: string | readonly string[], rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${hmacHex(s, timestamp, rawBody)}`)].join(',');
}

export interface VerifyWebhookOptions {
  /** The bot's signing secret (`whsec_...`). */
  secret: string;
  /** All request headers as received: the Standard Webhooks headers are checked when present. */
  headers?: Record<string, string | string[] | undefined>;
  /** The x-platform-signature header as received (the earlier scheme), when `headers` is not given. */
  header?: string | string[] | undefined;
  /** The request body exactly as received, before any JSON parsing. */
  rawBody: string | Buffer;
  /** How old a signature may be; default 300 s. */
  toleranceSeconds?: number;
  /** Current unix time in seconds (tests). */
  now?: number;
}

/**
 * For bots: true only when the call carries a v1 signature of this body under `secret` and its
 * timestamp is within the tolerance. Given `headers`, it checks the Standard Webhooks headers (or, when
 * a call has none, x-platform-signature); given `header`, the earlier scheme. Compares in constant time.
 */
export function verifyWebhookSignature(options: VerifyWebhookOptions): boolean {
  if (options.headers?.[POSTBACK_HEADERS.signature] !== undefined) {
    return verifyPostbackSignature({ ...options, headers: options.headers });
  }
  const raw = options.header ?? options.headers?.[WEBHOOK_SIGNATURE_HEADER];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (typeof header !== 'string') return false;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && /^\d{1,12}$/.test(value ?? '')) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '')) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS)) return false;
  const body = typeof options.rawBody === 'string' ? options.rawBody : options.rawBody.toString('utf8');
  const expected = Buffer.from(hmacHex(options.secret, timestamp, body), 'hex');
  return signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected));
}
