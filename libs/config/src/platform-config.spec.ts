import 'reflect-metadata';
import { ConfigError, loadPlatformEnv } from './platform-config.js';

const base = {
  DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
};

describe('loadPlatformEnv', () => {
  it('applies defaults and derives the public URLs', () => {
    const env = loadPlatformEnv(base);
    expect(env).toMatchObject({ PORT: 3000, WHATSAPP_MAX_ATTEMPTS: 5, WORKER_MAX_STALLED_COUNT: 3, BASE_URL: 'http://127.0.0.1:3000', AUTH_URL: 'http://127.0.0.1:3000' });
  });

  it('names every missing variable', () => {
    expect(() => loadPlatformEnv({})).toThrow(ConfigError);
    try {
      loadPlatformEnv({});
    } catch (err) {
      expect((err as Error).message).toMatch(/DATABASE_URL is required[\s\S]*REDIS_URL is required[\s\S]*ENCRYPTION_KEYS is required/);
    }
  });

  it.each([
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['REDIS_URL', 'localhost:6379', 'REDIS_URL must be a redis:// or rediss:// URL'],
    ['ENCRYPTION_KEYS', 'k1:short', 'ENCRYPTION_KEYS must be comma-separated keyId:base64 pairs'],
    ['PORT', 'eighty', 'PORT must be an integer'],
    ['WHATSAPP_MAX_ATTEMPTS', '0', 'WHATSAPP_MAX_ATTEMPTS must not be less than 1'],
    ['WORKER_MAX_STALLED_COUNT', '-1', 'WORKER_MAX_STALLED_COUNT must be at least 0'],
    ['WORKER_MAX_STALLED_COUNT', 'often', 'WORKER_MAX_STALLED_COUNT must be an integer (0..100)'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of'],
    ['ENCRYPTION_ACTIVE_KEY_ID', 'k9', 'ENCRYPTION_ACTIVE_KEY_ID "k9" is not among ENCRYPTION_KEYS'],
    ['WHATSAPP_APP_SECRET', 'short', 'WHATSAPP_APP_SECRET must be at least 8 characters'],
    ['WHATSAPP_APP_SECRET', 'a-long-app-secret', 'WHATSAPP_WEBHOOK_VERIFY_TOKEN and WHATSAPP_APP_SECRET must be set together'],
  ])('refuses a malformed %s', (name, value, message) => {
    expect(() => loadPlatformEnv({ ...base, [name]: value })).toThrow(message);
  });

  it('takes the WhatsApp webhook secrets together and never repeats them in its errors', () => {
    const secrets = { WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-token-123', WHATSAPP_APP_SECRET: 'app-secret-456' };
    expect(loadPlatformEnv({ ...base, ...secrets })).toMatchObject(secrets);
    const message = (() => {
      try {
        loadPlatformEnv({ ...base, WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-token-123', WHATSAPP_APP_SECRET: 'secret7' });
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toMatch(/WHATSAPP_APP_SECRET must be at least 8 characters/);
    expect(message).not.toMatch(/verify-token-123|secret7/);
  });
});
