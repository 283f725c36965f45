import 'reflect-metadata';
import { ConfigError } from '../config-error.js';
import { loadEnv } from '../env-loader.js';
import { CallbackEnv } from './callback-env.js';
import { LifecycleStreamEnv } from './lifecycle-stream-env.js';

describe('callback settings (bot webhooks and postbacks): one retry schedule', () => {
  it('has defaults', () => {
    const env = loadEnv([CallbackEnv, LifecycleStreamEnv], {});
    expect({ ...env.get(CallbackEnv) }).toEqual({
      CALLBACK_MAX_ATTEMPTS: 15,
      CALLBACK_BACKOFF_MS: 5000,
      CALLBACK_TIMEOUT_MS: 10000,
      CALLBACK_CONCURRENCY: 20,
      CALLBACK_DISABLE_AFTER_HOURS: 72,
      CALLBACK_SECRET_ROTATION_HOURS: 24,
    });
    expect(env.get(LifecycleStreamEnv).LIFECYCLE_STREAM_MAXLEN).toBe(100000);
  });

  it('reads each variable under its own name', () => {
    const env = loadEnv([CallbackEnv], { CALLBACK_TIMEOUT_MS: '300', CALLBACK_MAX_ATTEMPTS: '3', CALLBACK_DISABLE_AFTER_HOURS: '1' });
    expect(env.get(CallbackEnv)).toMatchObject({ CALLBACK_TIMEOUT_MS: 300, CALLBACK_MAX_ATTEMPTS: 3, CALLBACK_CONCURRENCY: 20, CALLBACK_DISABLE_AFTER_HOURS: 1 });
  });

  it('refuses values out of bounds, naming the variable', () => {
    const load = () => loadEnv([CallbackEnv], { CALLBACK_MAX_ATTEMPTS: '51', CALLBACK_TIMEOUT_MS: '99', CALLBACK_CONCURRENCY: 'many', CALLBACK_DISABLE_AFTER_HOURS: '0' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/CALLBACK_MAX_ATTEMPTS must be at most 50/);
    expect(load).toThrow(/CALLBACK_TIMEOUT_MS must be at least 100/);
    expect(load).toThrow(/CALLBACK_CONCURRENCY must be an integer \(1\.\.1000\)/);
    expect(load).toThrow(/CALLBACK_DISABLE_AFTER_HOURS must be at least 1/);
  });
});
