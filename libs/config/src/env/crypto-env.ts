import { IsOptional, Matches } from 'class-validator';
import type { CrossFieldRules } from '../env-loader.js';

/** Keys that seal provider credentials and bot webhook secrets at rest. */
export class CryptoEnv implements CrossFieldRules {
  /** Comma-separated `keyId:base64Key` pairs; each key is 32 bytes (AES-256). */
  @Matches(/^[A-Za-z0-9_-]+:[A-Za-z0-9+/=]{43,44}(,[A-Za-z0-9_-]+:[A-Za-z0-9+/=]{43,44})*$/, {
    message: 'ENCRYPTION_KEYS must be comma-separated keyId:base64 pairs, each key 32 bytes (openssl rand -base64 32)',
  })
  ENCRYPTION_KEYS: string;

  /** Key id new secrets are encrypted under; defaults to the first of ENCRYPTION_KEYS. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'ENCRYPTION_ACTIVE_KEY_ID must be a key id from ENCRYPTION_KEYS' })
  ENCRYPTION_ACTIVE_KEY_ID?: string;

  crossFieldProblems(): string[] {
    const keyIds = this.ENCRYPTION_KEYS.split(',').map((pair) => pair.split(':')[0]);
    return this.ENCRYPTION_ACTIVE_KEY_ID && !keyIds.includes(this.ENCRYPTION_ACTIVE_KEY_ID) ? [`ENCRYPTION_ACTIVE_KEY_ID "${this.ENCRYPTION_ACTIVE_KEY_ID}" is not among ENCRYPTION_KEYS`] : [];
  }
}
