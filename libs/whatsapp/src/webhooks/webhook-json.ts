/** Reading Meta's webhook JSON, whose every part may be missing or of another type. */
export type Json = Record<string, unknown>;

export const asObject = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * A non-empty string, cut to `max`, without what Postgres refuses to store (NUL, and UTF-16 halves
 * without their pair, which no UTF-8 can hold): they are dropped and replaced with U+FFFD.
 */
export const str = (v: unknown, max = 4096): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const clean = v
    .replaceAll('\u0000', '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .slice(0, max);
  return clean === '' ? undefined : clean;
};

/** An id Meta gives (wamid, phone-number id): printable ASCII only, at most `max` characters. */
export const metaId = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length <= max && /^[\x21-\x7e]+$/.test(v) ? v : undefined);

/** A Unix time in seconds, as Meta writes it (a string of digits); now when missing or unreadable. */
export const unixTime = (v: unknown): Date => (typeof v === 'string' && /^\d{1,12}$/.test(v) ? new Date(Number(v) * 1000) : new Date());
