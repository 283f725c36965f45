import { sha256Hex } from '@platform/crypto';

const WHITESPACE = /[ \t\n\r]/;

/**
 * What an Idempotency-Key's record keeps of the trigger's body: the SHA-256 (hex) of the JSON text as
 * received, without the whitespace between its tokens (and a leading BOM, which the parser skips too),
 * so that the same body sent compact or pretty-printed matches. Hashing the received text instead of
 * re-serialising the parsed body saves that serialisation on every keyed trigger; compact JSON, the
 * usual case, is hashed as it is. `json` must be text the JSON parser accepted.
 */
export function bodyFingerprint(json: string): string {
  const text = json.charCodeAt(0) === 0xfeff ? json.slice(1) : json;
  return sha256Hex(WHITESPACE.test(text) ? withoutWhitespaceBetweenTokens(text) : text);
}

/** `json` without the spaces, tabs and line breaks outside its strings. */
export function withoutWhitespaceBetweenTokens(json: string): string {
  let out = '';
  let start = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character (\" does not end the string)
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      if (i > start) out += json.slice(start, i);
      start = i + 1;
    }
  }
  return start === 0 ? json : out + json.slice(start);
}
