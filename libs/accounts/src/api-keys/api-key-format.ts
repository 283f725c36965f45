import { randomToken, sha256Hex } from '@platform/crypto';

/** Keys look like `bpk_<43 base64url chars>`: the `bpk_` prefix lets secret scanners recognise a leak. */
export const API_KEY_PREFIX = 'bpk_';
const VISIBLE_CHARS = 12;
const API_KEY_PATTERN = /^bpk_[A-Za-z0-9_-]{43}$/;

export interface GeneratedApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { key, prefix: key.slice(0, VISIBLE_CHARS), hash: sha256Hex(key) };
}

export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}
