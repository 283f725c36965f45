import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header in which Meta signs every webhook POST: `sha256=<hex HMAC-SHA256 of the raw body, keyed by the app secret>`. */
export const HUB_SIGNATURE_HEADER = 'x-hub-signature-256';

/** True only when `header` is the signature of exactly `rawBody` under `appSecret`; compared in constant time. */
export function isValidHubSignature(appSecret: string, header: unknown, rawBody: Buffer): boolean {
  const match = typeof header === 'string' ? /^sha256=([0-9a-f]{64})$/i.exec(header.trim()) : null;
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(match[1], 'hex'), expected);
}
