import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Callbacks (bot webhook calls and postbacks) are signed in the Standard Webhooks style (standardwebhooks.com):
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>`,
 * where the key is the bytes of the bot's secret after its `whsec_` prefix, base64(url)-decoded.
 */
export const POSTBACK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

function hmac(secret: string, id: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', key(secret)).update(`${id}.${timestamp}.${rawBody}`, 'utf8').digest('base64');
}

/**
 * The three headers of one callback (bot webhook call or postback). With several secrets (a rotation
 * in progress) the signature header carries one space-separated `v1,` entry per secret, as the
 * Standard Webhooks spec allows: a receiver holding either secret verifies the call.
 */
export function signPostback(secret: string | readonly string[], id: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return {
    [POSTBACK_HEADERS.id]: id,
    [POSTBACK_HEADERS.timestamp]: String(timestamp),
    [POSTBACK_HEADERS.signature]: secrets.map((s) => `v1,${hmac(s, id, timestamp, rawBody)}`).join(' '),
  };
}

export interface VerifyPostbackOptions {
  secret: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received. */
  rawBody: string | Buffer;
  /** How old a timestamp may be; default 300 s. */
  toleranceSeconds?: number;
  now?: number;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** For receivers: true when one of the v1 signatures matches and the timestamp is recent. Constant-time. */
export function verifyPostbackSignature(options: VerifyPostbackOptions): boolean {
  const id = first(options.headers[POSTBACK_HEADERS.id]);
  const ts = first(options.headers[POSTBACK_HEADERS.timestamp]);
  const signatures = first(options.headers[POSTBACK_HEADERS.signature]);
  if (!id || !ts || !/^\d{1,12}$/.test(ts) || !signatures) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(ts)) > (options.toleranceSeconds ?? 300)) return false;
  const body = typeof options.rawBody === 'string' ? options.rawBody : options.rawBody.toString('utf8');
  const expected = Buffer.from(hmac(options.secret, id, Number(ts), body), 'base64');
  return signatures.split(' ').some((s) => {
    const [version, value] = s.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
