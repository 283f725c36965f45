import 'reflect-metadata';
import { IsOptional } from 'class-validator';
import { BoolEnv, IntEnv, UrlEnv } from './env-decorators.js';
import { loadEnv } from './env-loader.js';

class SampleEnv {
  @IntEnv({ min: 1, max: 10 })
  SAMPLE_COUNT: number = 5;

  @IntEnv({ min: 100 })
  SAMPLE_TIMEOUT_MS: number = 1000;

  @IntEnv({ min: 0, max: 60 })
  SAMPLE_TTL_SECONDS: number = 30;

  @BoolEnv()
  SAMPLE_ENABLED: boolean = false;

  @IsOptional()
  @UrlEnv()
  SAMPLE_URL?: string;

  @UrlEnv({ protocols: ['http', 'https'] })
  SAMPLE_API_URL: string = 'https://api.example.com';
}

const load = (env: Record<string, string>) => loadEnv([SampleEnv], env).get(SampleEnv);
const problem = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('IntEnv', () => {
  it('keeps the default when unset and parses a set value into a number', () => {
    expect(load({}).SAMPLE_COUNT).toBe(5);
    expect(load({ SAMPLE_COUNT: '7', SAMPLE_TIMEOUT_MS: '250' })).toMatchObject({ SAMPLE_COUNT: 7, SAMPLE_TIMEOUT_MS: 250 });
  });

  it('accepts both bounds', () => {
    expect(load({ SAMPLE_COUNT: '1' }).SAMPLE_COUNT).toBe(1);
    expect(load({ SAMPLE_COUNT: '10' }).SAMPLE_COUNT).toBe(10);
  });

  it.each([
    ['SAMPLE_COUNT', 'seven', 'SAMPLE_COUNT must be an integer (1..10)'],
    ['SAMPLE_COUNT', '2.5', 'SAMPLE_COUNT must be an integer (1..10)'],
    ['SAMPLE_COUNT', '0', 'SAMPLE_COUNT must be at least 1'],
    ['SAMPLE_COUNT', '11', 'SAMPLE_COUNT must be at most 10'],
    ['SAMPLE_TIMEOUT_MS', '1e3', 'SAMPLE_TIMEOUT_MS must be an integer (milliseconds, at least 100)'],
    ['SAMPLE_TIMEOUT_MS', '99', 'SAMPLE_TIMEOUT_MS must be at least 100'],
    ['SAMPLE_TTL_SECONDS', 'soon', 'SAMPLE_TTL_SECONDS must be an integer (seconds, 0..60)'],
  ])('refuses %s=%s naming its range', (name, value, message) => {
    expect(problem({ [name]: value })).toBe(`Invalid configuration:\n  - ${message}`);
  });
});

describe('BoolEnv', () => {
  it('turns true and false into booleans and keeps the default when unset', () => {
    expect(load({ SAMPLE_ENABLED: 'true' }).SAMPLE_ENABLED).toBe(true);
    expect(load({ SAMPLE_ENABLED: 'false' }).SAMPLE_ENABLED).toBe(false);
    expect(load({}).SAMPLE_ENABLED).toBe(false);
  });

  it.each(['yes', '1', 'TRUE'])('refuses %s', (value) => {
    expect(problem({ SAMPLE_ENABLED: value })).toContain('SAMPLE_ENABLED must be true or false');
  });
});

describe('UrlEnv', () => {
  it('drops a trailing slash so paths can be appended', () => {
    expect(load({ SAMPLE_URL: 'http://127.0.0.1:8080/v1/' }).SAMPLE_URL).toBe('http://127.0.0.1:8080/v1');
  });

  it('refuses a relative URL and, when protocols are given, any other protocol', () => {
    expect(problem({ SAMPLE_URL: 'example.com/x' })).toContain('SAMPLE_URL must be an absolute URL');
    expect(problem({ SAMPLE_API_URL: 'ftp://files.example.com' })).toContain('SAMPLE_API_URL must be an http(s) URL');
  });
});
