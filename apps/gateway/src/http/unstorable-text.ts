/**
 * Text the platform cannot keep: the NUL character, which Postgres refuses in `text` and `jsonb`, and
 * UTF-16 surrogates without their pair, which are not characters at all (`jsonb` refuses them; UTF-8
 * would turn them into U+FFFD). Only a `\u` escape can put either into a JSON string (JSON has no raw
 * control characters, and decoding UTF-8 replaces a malformed sequence), so the request body's text is
 * searched for one before its parsed value is walked.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with the first such string of a parsed JSON body, naming its path (`payload.userName`, `cards.0.title`); null when nothing is. */
export function unstorableTextIn(body: unknown, bodyText: string): string | null {
  return bodyText.includes('\\u') ? problemIn(body, '') : null;
}

function problemIn(value: unknown, path: string): string | null {
  if (typeof value === 'string') return problemOf(value, path || 'the body');
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = problemIn(value[i], path ? `${path}.${i}` : String(i));
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, member] of Object.entries(value)) {
    const keyProblem = problemOf(key, `a field name in ${path || 'the body'}`);
    if (keyProblem) return keyProblem;
    const problem = problemIn(member, path ? `${path}.${key}` : key);
    if (problem) return problem;
  }
  return null;
}

function problemOf(text: string, where: string): string | null {
  if (text.includes('\0')) return `${where} contains a NUL character (\\u0000), which cannot be stored`;
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `${where} contains an unpaired UTF-16 surrogate (\\u${lone[0].charCodeAt(0).toString(16)}), which is not a character`;
  return null;
}
