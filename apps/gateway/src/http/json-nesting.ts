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
 * without parsing (brackets inside strings do not count). Every body passes here: a plain loop, no
 * call per character. Bytes can be given as latin1 text: no byte of a multi-byte UTF-8 character is
 * one of these ASCII codes.
 */
export function jsonNestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
