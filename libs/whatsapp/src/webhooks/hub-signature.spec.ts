import { isValidHubSignature } from './hub-signature.js';

// HMAC-SHA256("It's a Secret to Everybody", "Hello, World!"), the example of GitHub's X-Hub-Signature-256 docs.
const SECRET = "It's a Secret to Everybody";
const BODY = Buffer.from('Hello, World!');
const SIGNATURE = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

describe('isValidHubSignature', () => {
  it('accepts the signature of the exact body under the secret', () => {
    expect(isValidHubSignature(SECRET, SIGNATURE, BODY)).toBe(true);
    expect(isValidHubSignature(SECRET, SIGNATURE.toUpperCase().replace('SHA256', 'sha256'), BODY)).toBe(true);
  });

  it.each([
    ['a missing header', undefined],
    ['an array of headers', [SIGNATURE]],
    ['no sha256= prefix', SIGNATURE.slice('sha256='.length)],
    ['the sha1 scheme', 'sha1=' + SIGNATURE.slice(7, 47)],
    ['a truncated digest', SIGNATURE.slice(0, -2)],
    ['another digest', SIGNATURE.slice(0, -1) + '8'],
  ])('refuses %s', (_name, header) => {
    expect(isValidHubSignature(SECRET, header, BODY)).toBe(false);
  });

  it('refuses another body or another secret', () => {
    expect(isValidHubSignature(SECRET, SIGNATURE, Buffer.from('Hello, World! '))).toBe(false);
    expect(isValidHubSignature('another secret', SIGNATURE, BODY)).toBe(false);
  });
});
