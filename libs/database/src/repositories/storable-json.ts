/**
 * JSON text for a `jsonb` parameter, of data the platform did not check on its way in: a provider's
 * webhook, what a bot's http node was answered, what its function returned. `jsonb` refuses the NUL
 * escape and unpaired surrogate escapes, so one such string would fail the write (a bot's turn with it,
 * on every retry); each becomes U+FFFD, the replacement character, instead. JSON.stringify writes a surrogate
 * as an escape only when it is unpaired, and a backslash as `\\`, which the pattern steps over.
 */
const UNSTORABLE_ESCAPE = /\\\\|\\u0000|\\ud[89a-f][0-9a-f]{2}/g;

export function storableJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u') ? text.replace(UNSTORABLE_ESCAPE, (escape) => (escape === '\\\\' ? escape : '\\ufffd')) : text;
}
