import { OAuthError } from '@platform/accounts';

/** A parsed form body as single string values; a repeated or non-string parameter is invalid_request (RFC 6749 §3.2). */
export function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body === null || typeof body !== 'object') return out;
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `parameter ${key} is repeated`);
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `parameter ${key} must be a string`);
    if (value !== '') out[key] = value;
  }
  return out;
}

/** One cookie of a request by name. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
