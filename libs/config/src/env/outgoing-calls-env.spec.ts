import 'reflect-metadata';
import { ConfigError } from '../config-error.js';
import { loadEnv } from '../env-loader.js';
import { PostbackEnv } from './postback-env.js';
import { WebhookDeliveryEnv } from './webhook-delivery-env.js';

describe('outgoing call settings (bot webhooks, postbacks): one shape under two prefixes', () => {
  it('gives each kind its own defaults', () => {
    const env = loadEnv([WebhookDeliveryEnv, PostbackEnv], {});
    expect({ ...env.get(WebhookDeliveryEnv) }).toEqual({ WEBHOOK_MAX_ATTEMPTS: 12, WEBHOOK_BACKOFF_MS: 2000, WEBHOOK_TIMEOUT_MS: 10000, WEBHOOK_CONCURRENCY: 10 });
    expect({ ...env.get(PostbackEnv) }).toEqual({
      POSTBACK_MAX_ATTEMPTS: 15,
      POSTBACK_BACKOFF_MS: 5000,
      POSTBACK_TIMEOUT_MS: 10000,
      POSTBACK_CONCURRENCY: 20,
      LIFECYCLE_STREAM_MAXLEN: 100000,
    });
  });

  it('reads each variable under its own name, and one prefix never sets the other', () => {
    const env = loadEnv([WebhookDeliveryEnv, PostbackEnv], { WEBHOOK_TIMEOUT_MS: '300', POSTBACK_MAX_ATTEMPTS: '3', POSTBACK_CONCURRENCY: '7' });
    expect(env.get(WebhookDeliveryEnv)).toMatchObject({ WEBHOOK_TIMEOUT_MS: 300, WEBHOOK_MAX_ATTEMPTS: 12, WEBHOOK_CONCURRENCY: 10 });
    expect(env.get(PostbackEnv)).toMatchObject({ POSTBACK_MAX_ATTEMPTS: 3, POSTBACK_CONCURRENCY: 7, POSTBACK_TIMEOUT_MS: 10000 });
  });

  it('refuses values out of bounds, naming the variable', () => {
    const load = () => loadEnv([WebhookDeliveryEnv, PostbackEnv], { WEBHOOK_MAX_ATTEMPTS: '51', POSTBACK_TIMEOUT_MS: '99', POSTBACK_CONCURRENCY: 'many' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/WEBHOOK_MAX_ATTEMPTS must be at most 50/);
    expect(load).toThrow(/POSTBACK_TIMEOUT_MS must be at least 100/);
    expect(load).toThrow(/POSTBACK_CONCURRENCY must be an integer \(1\.\.1000\)/);
  });
});
