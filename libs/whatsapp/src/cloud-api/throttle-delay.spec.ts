import { ACCOUNT_BACKOFF_MS, MAX_THROTTLE_BACKOFF_MS, PAIR_DELAY_MS, SENDER_BACKOFF_MS, throttleDelayMs } from './throttle-delay.js';

describe('throttleDelayMs', () => {
  const noJitter = () => 0;

  it("follows Meta's hint when it gave one", () => {
    expect(throttleDelayMs('account', 1, 30_000, noJitter)).toBe(30_000);
    expect(throttleDelayMs('pair', 5, 0, noJitter)).toBe(1);
  });

  it('waits about 6 s for the pair rate, however often it repeats', () => {
    expect(throttleDelayMs('pair', 1, undefined, noJitter)).toBe(PAIR_DELAY_MS);
    expect(throttleDelayMs('pair', 9, undefined, noJitter)).toBe(PAIR_DELAY_MS);
    expect(throttleDelayMs('pair', 1, undefined, () => 1)).toBe(PAIR_DELAY_MS * 1.25);
  });

  it("doubles the number's and the account's backoff on each repeat, up to the cap", () => {
    expect(throttleDelayMs('sender', 1, undefined, noJitter)).toBe(SENDER_BACKOFF_MS);
    expect(throttleDelayMs('sender', 3, undefined, noJitter)).toBe(SENDER_BACKOFF_MS * 4);
    expect(throttleDelayMs('account', 2, undefined, noJitter)).toBe(ACCOUNT_BACKOFF_MS * 2);
    expect(throttleDelayMs('account', 40, undefined, noJitter)).toBe(MAX_THROTTLE_BACKOFF_MS);
  });
});
