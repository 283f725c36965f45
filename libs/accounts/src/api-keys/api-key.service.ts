import { Injectable, Logger } from '@nestjs/common';
import { sha256Hex } from '@platform/crypto';
import { ApiKeyRepository } from '@platform/database';
import { generateApiKey, looksLikeApiKey } from './api-key-format.js';
import { KeyRevocations } from './key-revocations.js';

export interface ApiKeyPrincipal {
  keyId: string;
  botId: string;
}

interface CacheEntry {
  principal: ApiKeyPrincipal | null;
  expiresAt: number;
}

const POSITIVE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;
const LAST_USED_WRITE_INTERVAL_MS = 60_000;
const MAX_CACHE_ENTRIES = 10_000;

/**
 * Issues and checks bot API keys. Checks are answered from a per-process cache; a revocation is
 * broadcast to every replica (KeyRevocations) so each drops the key at once, and while this replica
 * does not hear revocations the cache is bypassed. last-used is written at most once a minute per key
 * and replica.
 */
@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);
  private readonly cache = new Map<string, CacheEntry>();
  private readonly lastUsedWritten = new Map<string, number>();
  /**
   * Counts the revocations this replica heard: a check whose Postgres read began before one may have
   * read the key still live, so it answers from that read but does not cache it.
   */
  private revocationsHeard = 0;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly revocations: KeyRevocations,
  ) {
    revocations.onRevoked((hash) => {
      this.revocationsHeard++;
      this.cache.delete(hash);
    });
    // Anything revoked while we were not listening is unknown, so start from an empty cache.
    revocations.onListening(() => {
      this.revocationsHeard++;
      this.cache.clear();
    });
  }

  async create(botId: string, name: string) {
    const generated = generateApiKey();
    const row = await this.keys.create({ botId, name, prefix: generated.prefix, hash: generated.hash });
    return { key: generated.key, record: row };
  }

  async revoke(botId: string, keyId: string) {
    const row = await this.keys.revoke(botId, keyId);
    if (row) {
      this.revocationsHeard++;
      this.cache.delete(row.hash);
      await this.revocations.publish(row.hash);
    }
    return row;
  }

  /**
   * verify's answer when this replica's cache holds it (null: unknown or revoked), without a promise;
   * undefined when verify must be asked (not cached, expired, or revocations not heard).
   */
  verifyCached(key: string): ApiKeyPrincipal | null | undefined {
    if (!looksLikeApiKey(key)) return null;
    const principal = this.cachedPrincipal(sha256Hex(key));
    if (principal) this.noteUsed(principal.keyId);
    return principal;
  }

  /** The key's bot, or null when the key is unknown or revoked. */
  async verify(key: string): Promise<ApiKeyPrincipal | null> {
    const cached = this.verifyCached(key);
    if (cached !== undefined) return cached;
    const hash = sha256Hex(key);
    const useCache = this.revocations.listening;
    const heard = this.revocationsHeard;
    const row = await this.keys.findByHash(hash);
    const principal = row && !row.revokedAt ? { keyId: row.id, botId: row.botId } : null;
    if (useCache && heard === this.revocationsHeard) this.remember(hash, principal);
    if (principal) this.noteUsed(principal.keyId);
    return principal;
  }

  private cachedPrincipal(hash: string): ApiKeyPrincipal | null | undefined {
    if (!this.revocations.listening) return undefined;
    const cached = this.cache.get(hash);
    return cached && cached.expiresAt > Date.now() ? cached.principal : undefined;
  }

  private remember(hash: string, principal: ApiKeyPrincipal | null) {
    if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hash, { principal, expiresAt: Date.now() + (principal ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
  }

  private noteUsed(keyId: string) {
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(keyId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWritten.set(keyId, now);
    this.keys.touchLastUsed(keyId, new Date(now)).catch((err) => this.logger.warn(`last-used update failed: ${err}`));
  }
}
