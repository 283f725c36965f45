/**
 * Deepest nesting of arrays and objects a JSON body may have. Validation, class-transformer and the
 * prototype-poisoning scan all recurse per level, so a body nested a few thousand levels deep overflows
 * the stack; no body of the API comes near this limit.
 */
export const JSON_MAX_DEPTH = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text opens more than `max` arrays or objects inside each other, counted in one pass
 * without parsing (brackets inside strings do not count). Works on UTF-8 bytes as on text: no byte of
 * a multi-byte character is one of these ASCII codes.
 */
export function jsonNestedDeeperThan(text: string | Buffer, max: number): boolean {
  const at = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
