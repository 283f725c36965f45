import { isValidCodeVerifier, isValidS256Challenge, s256, verifyS256 } from './pkce.js';

describe('PKCE S256', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('matches the RFC 7636 appendix B vector', () => {
    expect(s256(verifier)).toBe(challenge);
    expect(verifyS256(verifier, challenge)).toBe(true);
  });

  it('refuses another verifier, and malformed verifiers', () => {
    expect(verifyS256(verifier.replace('d', 'e'), challenge)).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(42) + '+')).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(43))).toBe(true);
  });

  it('checks the challenge shape', () => {
    expect(isValidS256Challenge(challenge)).toBe(true);
    expect(isValidS256Challenge(challenge + 'A')).toBe(false);
    expect(isValidS256Challenge(challenge.replace('-', '+'))).toBe(false);
  });
});
