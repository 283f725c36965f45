import 'reflect-metadata';
import { ConfigError } from './config-error.js';
import { AuthEnv, ConversationEnv, CoreEnv, CryptoEnv, HttpEnv, JobLockEnv, PushEnv, SdkEnv, WebhookUrlEnv, WhatsAppEnv, WhatsAppRetryEnv, WhatsAppWebhookEnv, WorkerEnv } from './env/index.js';
import { EnvSource, loadEnv } from './env-loader.js';

const base = {
  DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/db',
  REDIS_URL: 'redis://127.0.0.1:6379',
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
};

const ALL = [CoreEnv, CryptoEnv, HttpEnv, WhatsAppEnv, WhatsAppRetryEnv, WhatsAppWebhookEnv, WorkerEnv, JobLockEnv, AuthEnv, PushEnv, SdkEnv, WebhookUrlEnv];

function configError(load: () => unknown): string {
  try {
    load();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadEnv', () => {
  it('applies defaults and derives the public URLs from HOST and PORT', () => {
    const env = loadEnv(ALL, base);
    expect(env.get(HttpEnv)).toMatchObject({
      PORT: 3000,
      BASE_URL: 'http://127.0.0.1:3000',
      AUTH_URL: 'http://127.0.0.1:3000',
      CLOUD_URL: 'http://127.0.0.1:3000',
      TRUST_PROXY: false,
      OPENAPI_UI: true,
    });
    expect(env.get(WhatsAppRetryEnv).WHATSAPP_MAX_ATTEMPTS).toBe(5);
    expect(env.get(JobLockEnv).WORKER_MAX_STALLED_COUNT).toBe(3);
    expect(env.get(JobLockEnv).WORKER_STALLED_SWEEP_MS).toBe(60000);
  });

  it('derives AUTH_URL and CLOUD_URL from a BASE_URL that is set, and keeps one set on its own', () => {
    const http = loadEnv([HttpEnv], { HOST: '0.0.0.0', PORT: '8080', BASE_URL: 'https://bots.example.com/', CLOUD_URL: 'https://cloud.example.com' }).get(HttpEnv);
    expect(http).toMatchObject({ BASE_URL: 'https://bots.example.com', AUTH_URL: 'https://bots.example.com', CLOUD_URL: 'https://cloud.example.com' });
    expect(loadEnv([HttpEnv], { HOST: '0.0.0.0', PORT: '8080' }).get(HttpEnv).BASE_URL).toBe('http://0.0.0.0:8080');
  });

  it('reports the problems of every class together, one line per variable', () => {
    const message = configError(() => loadEnv([CoreEnv, CryptoEnv, AuthEnv, SdkEnv], { REDIS_URL: 'localhost:6379', AUTH_CODE_TTL_SECONDS: '3600', SDK_SESSION_TTL_SECONDS: 'a day' }));
    expect(message).toBe(
      [
        'Invalid configuration:',
        '  - DATABASE_URL is required',
        '  - REDIS_URL must be a redis:// or rediss:// URL (or set REDIS_CLUSTER_NODES for a Redis Cluster)',
        '  - ENCRYPTION_KEYS is required',
        '  - AUTH_CODE_TTL_SECONDS must be at most 600',
        '  - SDK_SESSION_TTL_SECONDS must be an integer (seconds, 60..2592000)',
      ].join('\n'),
    );
  });

  it('reads the conversation retention and its sweep interval, and names a bad one', () => {
    expect(loadEnv([ConversationEnv], {}).get(ConversationEnv)).toMatchObject({ CONVERSATION_RETENTION_DAYS: 90, CONVERSATION_SWEEP_INTERVAL_SECONDS: 3600 });
    expect(loadEnv([ConversationEnv], { CONVERSATION_SWEEP_INTERVAL_SECONDS: '60' }).get(ConversationEnv).CONVERSATION_SWEEP_INTERVAL_SECONDS).toBe(60);
    expect(configError(() => loadEnv([ConversationEnv], { CONVERSATION_SWEEP_INTERVAL_SECONDS: '0' }))).toContain('CONVERSATION_SWEEP_INTERVAL_SECONDS must be');
  });

  it('validates only the classes it is given: what another app reads cannot stop this one', () => {
    const malformed = { ...base, AUTH_RATE_LIMIT_PER_IP: 'lots', SDK_EVENT_MAX_PER_USER: '0', WEBHOOK_ALLOW_HTTP: 'yes' };
    expect(() => loadEnv([CoreEnv, CryptoEnv, WorkerEnv, JobLockEnv, WhatsAppEnv], malformed)).not.toThrow();
    expect(configError(() => loadEnv(ALL, malformed))).toMatch(/AUTH_RATE_LIMIT_PER_IP[\s\S]*SDK_EVENT_MAX_PER_USER[\s\S]*WEBHOOK_ALLOW_HTTP/);
  });

  it('holds in each instance only the variables of its class', () => {
    const env = loadEnv([CoreEnv, AuthEnv], { ...base, SOME_OTHER: 'x' });
    expect(Object.keys(env.get(AuthEnv))).not.toContain('DATABASE_URL');
    expect(Object.keys(env.get(CoreEnv))).not.toContain('ENCRYPTION_KEYS');
    expect(Object.keys(env.get(CoreEnv))).not.toContain('SOME_OTHER');
    expect(() => env.get(SdkEnv)).toThrow(/SdkEnv is not among/);
  });

  it('treats an empty value as unset', () => {
    expect(loadEnv([CoreEnv, HttpEnv], { ...base, PORT: '', LOG_LEVEL: '' }).get(HttpEnv).PORT).toBe(3000);
  });

  it('turns the boolean variables into booleans', () => {
    const env = loadEnv(ALL, { ...base, TRUST_PROXY: 'true', OPENAPI_UI: 'false', PUSH_ALLOW_INSECURE_TOKEN_URI: 'true', WEBHOOK_ALLOW_HTTP: 'true' });
    expect(env.get(HttpEnv)).toMatchObject({ TRUST_PROXY: true, OPENAPI_UI: false });
    expect(env.get(PushEnv).PUSH_ALLOW_INSECURE_TOKEN_URI).toBe(true);
    expect(env.get(WebhookUrlEnv).WEBHOOK_ALLOW_HTTP).toBe(true);
  });

  it.each<[string, string, string]>([
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['REDIS_URL', 'localhost:6379', 'REDIS_URL must be a redis:// or rediss:// URL (or set REDIS_CLUSTER_NODES for a Redis Cluster)'],
    ['ENCRYPTION_KEYS', 'k1:short', 'ENCRYPTION_KEYS must be comma-separated keyId:base64 pairs'],
    ['PORT', 'eighty', 'PORT must be an integer (0..65535)'],
    ['PORT', '70000', 'PORT must be at most 65535'],
    ['WHATSAPP_MAX_ATTEMPTS', '0', 'WHATSAPP_MAX_ATTEMPTS must be at least 1'],
    ['WORKER_MAX_STALLED_COUNT', '-1', 'WORKER_MAX_STALLED_COUNT must be at least 0'],
    ['WORKER_MAX_STALLED_COUNT', 'often', 'WORKER_MAX_STALLED_COUNT must be an integer (0..100)'],
    ['WORKER_STALLED_SWEEP_MS', '50', 'WORKER_STALLED_SWEEP_MS must be at least 100'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of'],
    ['TRUST_PROXY', 'yes', 'TRUST_PROXY must be true or false'],
    ['BASE_URL', 'bots.example.com', 'BASE_URL must be an absolute URL'],
    ['FCM_API_BASE_URL', 'ftp://fcm.example.com', 'FCM_API_BASE_URL must be an http(s) URL'],
    ['ENCRYPTION_ACTIVE_KEY_ID', 'k9', 'ENCRYPTION_ACTIVE_KEY_ID "k9" is not among ENCRYPTION_KEYS'],
    ['WHATSAPP_APP_SECRET', 'short', 'WHATSAPP_APP_SECRET must be at least 8 characters'],
    ['WHATSAPP_APP_SECRET', 'a-long-app-secret', 'WHATSAPP_WEBHOOK_VERIFY_TOKEN and WHATSAPP_APP_SECRET must be set together'],
    ['REDIS_CLUSTER_NODES', 'a:1;b:2', 'REDIS_CLUSTER_NODES must be comma-separated host:port seed nodes'],
    ['REDIS_CLUSTER_NODES', '10.0.0.1:7000', 'Set either REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both'],
    ['REDIS_KEY_PREFIX', 'a b', 'REDIS_KEY_PREFIX may hold only letters, digits and : _ . -'],
    ['REDIS_ALLOW_EVICTION', 'yes', 'REDIS_ALLOW_EVICTION must be true or false'],
  ])('refuses a malformed %s', (name, value, message) => {
    expect(configError(() => loadEnv(ALL, { ...base, [name]: value } as EnvSource))).toContain(message);
  });

  it('takes a Redis Cluster instead of REDIS_URL', () => {
    const { REDIS_URL: _single, ...rest } = base;
    const core = loadEnv([CoreEnv], { ...rest, REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis://u:p@10.0.0.2:7001', REDIS_KEY_PREFIX: 'prod:' }).get(CoreEnv);
    expect(core.REDIS_CLUSTER_NODES).toBe('10.0.0.1:7000, redis://u:p@10.0.0.2:7001');
    expect(core.REDIS_KEY_PREFIX).toBe('prod:');
    expect(configError(() => loadEnv([CoreEnv], rest))).toContain('REDIS_URL is required');
  });

  it('runs a class cross-field rule beside the problems of other classes', () => {
    const message = configError(() => loadEnv([CoreEnv, CryptoEnv], { ...base, REDIS_URL: 'nope', ENCRYPTION_ACTIVE_KEY_ID: 'k9' }));
    expect(message).toMatch(/REDIS_URL must be[\s\S]*ENCRYPTION_ACTIVE_KEY_ID "k9" is not among ENCRYPTION_KEYS/);
  });

  it('takes the WhatsApp webhook secrets together and never repeats them in its errors', () => {
    const secrets = { WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-token-123', WHATSAPP_APP_SECRET: 'app-secret-456' };
    expect(loadEnv([WhatsAppWebhookEnv], secrets).get(WhatsAppWebhookEnv)).toMatchObject(secrets);
    const message = configError(() => loadEnv([WhatsAppWebhookEnv], { WHATSAPP_WEBHOOK_VERIFY_TOKEN: 'verify-token-123', WHATSAPP_APP_SECRET: 'secret7' }));
    expect(message).toMatch(/WHATSAPP_APP_SECRET must be at least 8 characters/);
    expect(message).not.toMatch(/verify-token-123|secret7/);
  });
});
