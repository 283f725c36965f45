import { SecretBox } from './secret-box.js';
import { safeEqual, sha256Hex } from './tokens.js';

const k1 = Buffer.alloc(32, 7).toString('base64');
const k2 = Buffer.alloc(32, 9).toString('base64');

describe('SecretBox', () => {
  it('round-trips and never stores the plaintext', () => {
    const box = new SecretBox(`a:${k1}`);
    const sealed = box.encrypt('EAAG-secret');
    expect(sealed).not.toContain('EAAG-secret');
    expect(sealed.startsWith('v1.a.')).toBe(true);
    expect(box.decrypt(sealed)).toBe('EAAG-secret');
    expect(box.encrypt('EAAG-secret')).not.toBe(sealed); // fresh IV each time
  });

  it('decrypts old secrets after the active key rotates', () => {
    const old = new SecretBox(`a:${k1}`).encrypt('s');
    const rotated = new SecretBox(`a:${k1},b:${k2}`, 'b');
    expect(rotated.decrypt(old)).toBe('s');
    expect(SecretBox.keyIdOf(rotated.encrypt('s'))).toBe('b');
  });

  it('refuses tampered ciphertext and unknown keys', () => {
    const box = new SecretBox(`a:${k1}`);
    const [v, id, iv, tag, ct] = box.encrypt('secret').split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([v, id, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox(`b:${k2}`).decrypt(box.encrypt('x'))).toThrow('key "a", which is not configured');
    expect(() => new SecretBox('a:c2hvcnQ=')).toThrow('not 32 bytes');
  });
});

describe('tokens', () => {
  it('compares secrets in constant time, by value', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(sha256Hex('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
