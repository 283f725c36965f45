import { Redis } from 'ioredis';
import type { CoreEnv, SdkEnv } from '@platform/config';
import type { RedisClient } from '@platform/queue';
import { createTestRedisUrl } from '@platform/testing';
import { SdkEventStore } from './sdk-event.store.js';

const event = (n: number) => ({ code: 'sendEvent', data: { code: 'e', data: String(n) } });

/** The append script against a real Redis: an append under an idempotency key happens once. */
describe('SdkEventStore.append', () => {
  let redis: Redis;
  let store: SdkEventStore;

  beforeAll(async () => {
    const url = await createTestRedisUrl();
    redis = new Redis(url);
    const core = { REDIS_URL: url, REDIS_COMMAND_TIMEOUT_MS: 2000 } as CoreEnv;
    store = new SdkEventStore(redis as unknown as RedisClient, { SDK_EVENT_MAX_PER_USER: 100, SDK_EVENT_RETENTION_SECONDS: 60 } as SdkEnv, core);
  });
  afterAll(() => redis.quit());

  it('stores an event with a dedupe id once, answering the first id again, and publishes it once', async () => {
    const sub = redis.duplicate();
    const published: string[] = [];
    await sub.subscribe(store.channel('b1', 'u1'));
    sub.on('message', (_channel, id: string) => published.push(id));

    const first = await store.append('b1', 'u1', event(1), { dedupeId: 'o1' });
    const again = await store.append('b1', 'u1', event(1), { dedupeId: 'o1' });
    const other = await store.append('b1', 'u1', event(2), { dedupeId: 'o2' });

    expect(first.duplicate).toBe(false);
    expect(again).toMatchObject({ id: first.id, duplicate: true });
    expect(other.duplicate).toBe(false);
    expect((await store.readAfter('b1', 'u1', '0-0', 10)).map((e) => e.event.data.data)).toEqual(['1', '2']);
    await new Promise((r) => setTimeout(r, 100));
    expect(published).toEqual([first.id, other.id]);
    await sub.quit();
  });

  it('stores every append without a dedupe id, and the marker of one user does not hold back another', async () => {
    await store.append('b1', 'u2', event(1));
    await store.append('b1', 'u2', event(1));
    await store.append('b1', 'u3', event(1), { dedupeId: 'o1' });
    expect(await store.readAfter('b1', 'u2', '0-0', 10)).toHaveLength(2);
    expect(await store.readAfter('b1', 'u3', '0-0', 10)).toHaveLength(1);
  });

  it('keeps the marker for the retention only', async () => {
    await store.append('b1', 'u4', event(1), { dedupeId: 'o9' });
    const ttl = await redis.pttl('sdk:{b1:u4}:dedupe:o9');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
