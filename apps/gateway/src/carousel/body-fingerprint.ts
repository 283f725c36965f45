import { hash } from 'node:crypto';

const WHITESPACE = /[ \t\n\r]/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * What the message holding an Idempotency-Key keeps of its trigger's body: the SHA-256 (base64url, 43
 * characters: it is stored with every keyed message, in Redis and Postgres) of the JSON text as
 * received, without the whitespace between its tokens (and a leading BOM, which the parser skips too),
 * so that the same body sent compact or pretty-printed matches. Hashing the received text instead of
 * re-serialising the parsed body saves that serialisation on every keyed trigger; compact JSON, the
 * usual case, is hashed as it is. `json` must be text the JSON parser accepted.
 */
export function bodyFingerprint(json: string): string {
  const text = json.charCodeAt(0) === 0xfeff ? json.slice(1) : json;
  // The regular expression is the quicker test for compact text with no whitespace at all.
  return hash('sha256', WHITESPACE.test(text) ? withoutWhitespaceBetweenTokens(text) : text, 'base64url');
}

/**
 * `json` without the spaces, tabs and line breaks outside its strings (`json` itself, no copy, when it
 * has none). Each string is skipped with `indexOf` to its closing quote instead of a look at every
 * character: most of a trigger's text is inside strings, and this runs on every keyed trigger. A quote
 * ends the string unless an odd number of backslashes precede it.
 */
export function withoutWhitespaceBetweenTokens(json: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(json, i);
      if (i < 0) break; // unterminated: not JSON the parser accepted; nothing more to strip
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      if (i > start) out += json.slice(start, i);
      start = i + 1;
    }
  }
  return start === 0 ? json : out + json.slice(start);
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(json: string, open: number): number {
  let at = json.indexOf('"', open + 1);
  while (at > 0) {
    let slashes = 0;
    while (json.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
    at = json.indexOf('"', at + 1);
  }
  return -1;
}
