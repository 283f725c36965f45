import { createHash } from 'node:crypto';
import { bodyFingerprint, withoutWhitespaceBetweenTokens } from './body-fingerprint.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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
