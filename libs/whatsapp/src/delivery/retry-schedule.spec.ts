import { backoffDelayMs, deliveryDeadline, retryWithin } from './retry-schedule.js';

describe('retry schedule', () => {
  const backoff = { baseMs: 2000, capMs: 300_000 };

  it('doubles from the base up to the cap, jittered at most half downward', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, backoff, () => 0))).toEqual([2000, 4000, 8000, 16000]);
    expect(backoffDelayMs(20, backoff, () => 0)).toBe(300_000);
    expect(backoffDelayMs(10_000, backoff, () => 0)).toBe(300_000);
    expect(backoffDelayMs(1, backoff, () => 1)).toBe(1000);
  });

  it('waits while the next try is within the deadline, and expires when it would come after it', () => {
    const deadline = deliveryDeadline(1_000_000, 60);
    expect(deadline).toBe(1_060_000);
    expect(retryWithin(1_050_000, deadline, 10_000)).toEqual({ kind: 'wait', delayMs: 10_000 });
    expect(retryWithin(1_050_001, deadline, 10_000)).toEqual({ kind: 'expired' });
  });
});
