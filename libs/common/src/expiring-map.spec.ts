import { jest } from '@jest/globals';
import { ExpiringMap } from './expiring-map.js';

describe('ExpiringMap', () => {
  let now = 1_000;
  const clock = () => now;

  it('serves a value until ttl has passed, then loads again', async () => {
    const map = new ExpiringMap<string>(5_000, 10, clock);
    const load = jest.fn(async (): Promise<string | null> => 'v1');
    expect(await map.getOrLoad('k', load)).toBe('v1');
    now += 4_999;
    expect(await map.getOrLoad('k', load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    load.mockResolvedValueOnce('v2');
    expect(await map.getOrLoad('k', load)).toBe('v2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep misses, so a new row is seen at once', async () => {
    const map = new ExpiringMap<string>(5_000, 10, clock);
    expect(await map.getOrLoad('k', async () => null)).toBeNull();
    expect(await map.getOrLoad('k', async () => 'created')).toBe('created');
  });

  it('keeps nothing with ttl 0 and stays within its bound', async () => {
    const off = new ExpiringMap<string>(0, 10, clock);
    off.set('k', 'v');
    expect(off.get('k')).toBeUndefined();
    const small = new ExpiringMap<number>(5_000, 3, clock);
    for (let i = 0; i < 7; i++) small.set(`k${i}`, i);
    expect([0, 1, 2, 3, 4, 5, 6].filter((i) => small.get(`k${i}`) !== undefined).length).toBeLessThanOrEqual(3);
    expect(small.get('k6')).toBe(6);
  });

  it('shares one load among callers that miss the same key at once, and a failed load is not kept', async () => {
    const map = new ExpiringMap<string>(5_000, 10, clock);
    let release!: (v: string) => void;
    const load = jest.fn(() => new Promise<string | null>((resolve) => (release = resolve)));
    const callers = Promise.all([map.getOrLoad('k', load), map.getOrLoad('k', load), map.getOrLoad('k', load)]);
    release('v');
    expect(await callers).toEqual(['v', 'v', 'v']);
    expect(load).toHaveBeenCalledTimes(1);

    const failing = jest.fn(async (): Promise<string | null> => Promise.reject(new Error('database down')));
    await expect(map.getOrLoad('other', failing)).rejects.toThrow('database down');
    expect(await map.getOrLoad('other', async () => 'back')).toBe('back');
  });
});
