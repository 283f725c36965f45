import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { AuthEnv, CoreEnv } from '@platform/config';
import { sha256Hex } from '@platform/crypto';
import type { RedisClient } from '@platform/queue';
import { RateLimitExceededError } from './rate-limit-exceeded.error.js';
import { RateLimiterUnavailableError } from './rate-limiter-unavailable.error.js';
import { RateLimiter } from './rate-limiter.service.js';

const WINDOW_MS = 60_000;

/**
 * Redis's EVAL for the limiter's two scripts, in memory with a movable clock: the charging script
 * (INCR, window started by the first hit) and the peek (GET + PTTL, charging nothing).
 */
function setup() {
  let now = 0;
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const live = (key: string) => {
    const c = counters.get(key);
    if (c && c.expiresAt <= now) counters.delete(key);
    return counters.get(key);
  };
  const evalScript = jest.fn(async (script: string, _keys: number, key: string, windowMs: number): Promise<[number, number]> => {
    const c = live(key);
    if (!script.includes('INCR')) return c ? [c.count, c.expiresAt - now] : [0, -2];
    const next = c ? { ...c, count: c.count + 1 } : { count: 1, expiresAt: now + windowMs };
    counters.set(key, next);
    return [next.count, next.expiresAt - now];
  });
  const redis = { eval: evalScript } as unknown as RedisClient;
  const limiter = new RateLimiter(redis, { AUTH_RATE_WINDOW_SECONDS: WINDOW_MS / 1000 } as AuthEnv, { REDIS_KEY_PREFIX: 'test:', REDIS_COMMAND_TIMEOUT_MS: 500 } as CoreEnv);
  return { limiter, evalScript, counters, advance: (ms: number) => (now += ms) };
}

async function refusal(p: Promise<unknown>): Promise<RateLimitExceededError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RateLimitExceededError);
  return err as RateLimitExceededError;
}

describe('RateLimiter', () => {
  afterEach(() => jest.useRealTimers());

  it('lets `limit` requests through in a window and refuses the next with the seconds left', async () => {
    const { limiter, advance } = setup();
    const check = [{ bucket: 'login-ip', id: '203.0.113.7', limit: 3 }];
    for (let i = 0; i < 3; i++) await limiter.consume(check);
    advance(20_500);
    const err = await refusal(limiter.consume(check));
    expect(err.retryAfterSeconds).toBe(40);
    expect(err.message).toBe('Too many requests; retry in 40 s');
    // A new window starts once the old one ends.
    advance(39_500);
    await expect(limiter.consume(check)).resolves.toBeUndefined();
  });

  it('counts each bucket and each id apart, under the hashed id only', async () => {
    const { limiter, counters, evalScript } = setup();
    await limiter.consume([{ bucket: 'login-ip', id: 'a', limit: 1 }]);
    await limiter.consume([{ bucket: 'login-ip', id: 'b', limit: 1 }]);
    await limiter.consume([{ bucket: 'login-email', id: 'a', limit: 1 }]);
    expect([...counters.keys()].sort()).toEqual([`test:rl:login-email:${sha256Hex('a')}`, `test:rl:login-ip:${sha256Hex('a')}`, `test:rl:login-ip:${sha256Hex('b')}`].sort());
    expect(evalScript.mock.calls.every((c) => c[3] === WINDOW_MS)).toBe(true);
    await expect(limiter.consume([{ bucket: 'login-ip', id: 'a', limit: 1 }])).rejects.toBeInstanceOf(RateLimitExceededError);
  });

  it('charges every check and refuses when any is over, answering the longest wait', async () => {
    const { limiter, counters, advance } = setup();
    await limiter.consume([{ bucket: 'b1', id: 'x', limit: 1 }]);
    advance(30_000);
    await limiter.consume([{ bucket: 'b2', id: 'x', limit: 1 }]);
    const err = await refusal(
      limiter.consume([
        { bucket: 'b1', id: 'x', limit: 1 },
        { bucket: 'b2', id: 'x', limit: 1 },
        { bucket: 'b3', id: 'x', limit: 5 },
      ]),
    );
    expect(err.retryAfterSeconds).toBe(60);
    expect(counters.get(`test:rl:b3:${sha256Hex('x')}`)?.count).toBe(1);
  });

  it('assertUnder refuses once the failures reach the limit, without charging anything itself', async () => {
    const { limiter, counters } = setup();
    const check = [{ bucket: 'login-fail', id: 'ann@example.com', limit: 2 }];
    await limiter.assertUnder(check);
    await limiter.assertUnder(check);
    expect(counters.size).toBe(0);
    await limiter.recordFailure(check);
    await limiter.assertUnder(check);
    await limiter.recordFailure(check);
    const err = await refusal(limiter.assertUnder(check));
    expect(err.retryAfterSeconds).toBe(60);
    expect(counters.get(`test:rl:login-fail:${sha256Hex('ann@example.com')}`)?.count).toBe(2);
  });

  it('recordFailure charges past the limit without throwing', async () => {
    const { limiter, counters } = setup();
    const check = [{ bucket: 'f', id: 'x', limit: 1 }];
    for (let i = 0; i < 4; i++) await expect(limiter.recordFailure(check)).resolves.toBeUndefined();
    expect(counters.get(`test:rl:f:${sha256Hex('x')}`)?.count).toBe(4);
  });

  it('answers at least one second, also for a window without expiry', async () => {
    const { limiter, evalScript } = setup();
    evalScript.mockResolvedValueOnce([2, 10]);
    expect((await refusal(limiter.consume([{ bucket: 'b', id: 'x', limit: 1 }]))).retryAfterSeconds).toBe(1);
    evalScript.mockResolvedValueOnce([1, -1]);
    expect((await refusal(limiter.assertUnder([{ bucket: 'b', id: 'x', limit: 1 }]))).retryAfterSeconds).toBe(1);
  });

  it('refuses rather than lets through when Redis fails or does not answer in time', async () => {
    const { limiter, evalScript } = setup();
    evalScript.mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    await expect(limiter.consume([{ bucket: 'b', id: 'x', limit: 1 }])).rejects.toBeInstanceOf(RateLimiterUnavailableError);
    jest.useFakeTimers();
    evalScript.mockReturnValueOnce(new Promise(() => {}));
    const pending = limiter.assertUnder([{ bucket: 'b', id: 'x', limit: 1 }]);
    const caught = pending.catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(500);
    const err = await caught;
    expect(err).toBeInstanceOf(RateLimiterUnavailableError);
    expect((err as Error).message).toBe('Rate limiting is unavailable (Redis is unreachable); try again later');
  });
});
