import type { CoreEnv } from '@platform/config';
import type { SecretBox } from '@platform/crypto';
import type { RedisClient } from '@platform/queue';
import type { LoadedPushConfig } from '../service-accounts/push-config.service.js';
import { AccessTokenProvider } from './access-token.provider.js';
import type { GoogleTokenClient } from './google-token.client.js';

/** A Redis of get/set/del over a Map, each call answered after `delayMs` (a round trip). */
function fakeRedis(delayMs = 5) {
  const data = new Map<string, string>();
  const later = <T>(value: () => T) => new Promise<T>((r) => setTimeout(() => r(value()), delayMs));
  return {
    data,
    redis: {
      get: (k: string) => later(() => data.get(k) ?? null),
      set: (k: string, v: string) => later(() => (data.set(k, v), 'OK')),
      del: (k: string) => later(() => Number(data.delete(k))),
    } as unknown as RedisClient,
  };
}

const box = { encrypt: (s: string) => s, decrypt: (s: string) => s } as unknown as SecretBox;
const core = { REDIS_URL: 'redis://unused', REDIS_KEY_PREFIX: 't:' } as CoreEnv;
const config = { botId: 'bot-1', version: 1, clientEmail: 'sa@example.iam.gserviceaccount.com' } as LoadedPushConfig;

function minter() {
  let n = 0;
  const google = { mint: async () => ({ accessToken: `token-${++n}`, expiresAt: Date.now() + 3600_000 }) } as unknown as GoogleTokenClient;
  return { google, minted: () => n };
}

describe('AccessTokenProvider', () => {
  it('mints once for concurrent misses, and shares the token through Redis', async () => {
    const { redis } = fakeRedis();
    const { google, minted } = minter();
    const tokens = new AccessTokenProvider(google, box, redis, core);
    expect(await Promise.all([tokens.get(config), tokens.get(config)])).toEqual(['token-1', 'token-1']);
    const other = new AccessTokenProvider(google, box, redis, core); // another replica
    expect(await other.get(config)).toBe('token-1');
    expect(minted()).toBe(1);
  });

  it('never takes back a token FCM refused, even when a get() reads it from Redis while it is being forgotten', async () => {
    const { redis } = fakeRedis();
    const { google } = minter();
    const tokens = new AccessTokenProvider(google, box, redis, core);
    expect(await tokens.get(config)).toBe('token-1');
    // FCM answered 401 to token-1; while invalidate() reads and deletes it in Redis, another send asks.
    const forgetting = tokens.invalidate(config, 'token-1');
    const meanwhile = tokens.get(config);
    await forgetting;
    expect(await meanwhile).toBe('token-2');
    expect(tokens.peek(config)).toBe('token-2');
  });
});
