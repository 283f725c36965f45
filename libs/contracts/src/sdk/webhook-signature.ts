import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signature of every webhook call the platform makes to a bot (Stripe-style):
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

/** The header value for `rawBody` (exactly the bytes sent) at `timestamp` (unix seconds). */
export function signWebhookBody(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export interface VerifyWebhookOptions {
  /** The bot's signing secret (`whsec_...`). */
  secret: string;
  /** The x-platform-signature header as received. */
  header: string | string[] | undefined;
  /** The request body exactly as received, before any JSON parsing. */
  rawBody: string | Buffer;
  /** How old a signature may be; default 300 s. */
  toleranceSeconds?: number;
  /** Current unix time in seconds (tests). */
  now?: number;
}

/**
 * For bots: true only when the header carries a v1 signature of this body under `secret` and its
 * timestamp is within the tolerance. Compares in constant time.
 */
export function verifyWebhookSignature(options: VerifyWebhookOptions): boolean {
  const header = Array.isArray(options.header) ? options.header[0] : options.header;
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
