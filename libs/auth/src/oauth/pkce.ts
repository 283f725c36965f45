import { createHash } from 'node:crypto';
import { safeEqual } from '@platform/crypto';

/** RFC 7636 §4.1: 43-128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL(SHA256(verifier)) is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isValidCodeVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function isValidS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Constant-time check of a verifier against the S256 challenge stored with the code. */
export function verifyS256(verifier: string, challenge: string): boolean {
  return isValidCodeVerifier(verifier) && safeEqual(s256(verifier), challenge);
}
