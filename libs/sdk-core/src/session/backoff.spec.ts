import { backoffDelay, DEFAULT_BACKOFF } from './backoff';

describe('backoffDelay', () => {
  const options = { ...DEFAULT_BACKOFF, jitter: false };

  it('grows by the factor up to the maximum', () => {
    expect([0, 1, 2, 3, 10, 20].map((n) => backoffDelay(n, options))).toEqual([500, 1000, 2000, 4000, 30000, 30000]);
  });

  it('keeps jittered delays between half and all of the delay', () => {
    expect(backoffDelay(2, { ...options, jitter: true }, () => 0)).toBe(1000);
    expect(backoffDelay(2, { ...options, jitter: true }, () => 0.999999)).toBeCloseTo(2000, 0);
  });
});
