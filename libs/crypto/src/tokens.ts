import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex digest: how API keys and tokens are stored (they have enough entropy for a fast hash). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant-time comparison of two secrets of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** A random token of `bytes` bytes of entropy, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
