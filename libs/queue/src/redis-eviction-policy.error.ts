import { StartupError } from '@platform/common';

/** Redis may evict keys (its maxmemory-policy is not noeviction): queued jobs could vanish, so the app does not start. */
export class RedisEvictionPolicyError extends StartupError {
  constructor(
    readonly node: string,
    readonly policy: string,
  ) {
    super(
      `Redis ${node} has maxmemory-policy ${policy}: under memory pressure it would evict keys, queued jobs among them. ` +
        "Set maxmemory-policy to noeviction (CONFIG SET maxmemory-policy noeviction, or your provider's parameter group), " +
        'or set REDIS_ALLOW_EVICTION=true to start anyway and accept that risk.',
    );
  }
}
