import { createHash } from 'node:crypto';
import { bodyFingerprint, withoutWhitespaceBetweenTokens } from './body-fingerprint.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

describe('bodyFingerprint', () => {
  const body = { userDetails: { number: '+919876543210' }, notification: { params: { body: ['Hello  world', 'tab\there', 'quote " and \\ slash'] }, n: [1, 2.5, true, null] } };

  it('is the SHA-256 of compact JSON as received', () => {
    expect(bodyFingerprint(JSON.stringify(body))).toBe(sha256(JSON.stringify(body)));
  });

  it('is the same for the same body with whitespace between its tokens, or a leading BOM', () => {
    const compact = bodyFingerprint(JSON.stringify(body));
    expect(bodyFingerprint(JSON.stringify(body, null, 2))).toBe(compact);
    expect(bodyFingerprint(JSON.stringify(body, null, '\t').replace(/\n/g, '\r\n'))).toBe(compact);
    expect(bodyFingerprint(` \n${JSON.stringify(body)}\n `)).toBe(compact);
    expect(bodyFingerprint(`\ufeff${JSON.stringify(body)}`)).toBe(compact);
  });

  it('keeps whitespace inside strings, escaped quotes included', () => {
    expect(withoutWhitespaceBetweenTokens('{ "a" : "x  \\" y\\\\" , "b": [ 1, "\\"" ] }')).toBe('{"a":"x  \\" y\\\\","b":[1,"\\""]}');
    expect(bodyFingerprint('{"a":"x y"}')).not.toBe(bodyFingerprint('{"a":"xy"}'));
  });
});

/** The character-by-character stripping this replaced. */
function strippedCharByChar(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += json[++i];
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (!' \t\n\r'.includes(ch)) out += ch;
  }
  return out;
}

describe('withoutWhitespaceBetweenTokens', () => {
  it('strips exactly what a character-by-character scan strips, for strings full of escapes, quotes and spaces', () => {
    // A fixed-seed generator of JSON values whose strings hold the characters that matter here.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['a', ' ', '"', '\\', '\t', '\n', 'é', '\\"', '\\\\', '\u2028', '}', ','];
    const text = () => Array.from({ length: Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return text();
      if (r < 0.4) return Math.floor(random() * 1000) / 10;
      if (r < 0.45) return null;
      if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [text(), value(depth + 1)]));
    };
    for (let n = 0; n < 500; n++) {
      const v = value(0);
      const compact = JSON.stringify(v);
      for (const json of [compact, JSON.stringify(v, null, 2), JSON.stringify(v, null, '\t').replace(/\n/g, '\r\n'), ` ${compact} `]) {
        expect(withoutWhitespaceBetweenTokens(json)).toBe(strippedCharByChar(json));
        expect(withoutWhitespaceBetweenTokens(json)).toBe(compact);
      }
    }
  });

  it('returns compact text itself, spaces inside its strings notwithstanding', () => {
    const compact = '{"a":"x y","b":["\\" z"]}';
    expect(withoutWhitespaceBetweenTokens(compact)).toBe(compact);
  });
});
