import { randomToken, sha256Hex } from '@platform/crypto';

/** Prefixes make leaked secrets recognisable to scanners and let the guards tell kinds apart without a lookup. */
export const TOKEN_PREFIXES = {
  access: 'bat_',
  refresh: 'brt_',
  code: 'bac_',
  clientId: 'bci_',
  clientSecret: 'bcs_',
} as const;

export interface GeneratedSecret {
  value: string;
  hash: string;
}

/** A new opaque secret of 256 bits with its storage hash. */
export function generateSecret(kind: keyof typeof TOKEN_PREFIXES, bytes = 32): GeneratedSecret {
  const value = `${TOKEN_PREFIXES[kind]}${randomToken(bytes)}`;
  return { value, hash: sha256Hex(value) };
}

const MAX_TOKEN_LENGTH = 200;

/** Cheap shape check before hashing and looking up: refuses absurd input without touching the database. */
export function looksLikeToken(kind: keyof typeof TOKEN_PREFIXES, value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_TOKEN_LENGTH && value.startsWith(TOKEN_PREFIXES[kind]);
}
