import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type RedisClient, triggerIdempotencyKey } from '@platform/queue';
import { carouselBody, until, carouselJobCount, testRedis } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Idempotency-Key on the carousel trigger: one message per key and body, whichever replica a repeat reaches. */
describe('carousel trigger Idempotency-Key, across two gateway replicas', () => {
  // No catalog cache: a trigger reads its template from Postgres, where a test can hold it.
  const stack = useStack({ seed: true, env: { CATALOG_CACHE_MS: '0' } }, 120_000);
  let urlB: string;
  let redis: RedisClient;

  beforeAll(async () => {
    urlB = (await stack.replica()).url;
    redis = testRedis(stack.env);
    stack.defer(() => redis.disconnect());
  });

  const trigger = (base: string, key: string | undefined, body: object = carouselBody(stack.seed)) =>
    fetch(`${base}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    });
  const recordKey = (key: string) => triggerIdempotencyKey(stack.env, stack.seed.botId, key);

  const jobs = () => carouselJobCount(stack.env);

  it('answers a repeat with the first answer and queues one message, on either replica, for 24 h', async () => {
    const before = await jobs();
    const key = `order-${randomUUID()}`;
    const first = await trigger(stack.url, key);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const base of [urlB, stack.url]) {
      const again = await trigger(base, key);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(firstBody);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('ratelimit-limit')).toBe('2000');
    }
    expect((await jobs()) - before).toBe(1);
    const ttl = await redis.pttl(recordKey(key));
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);

    // Without a key, or with another one, each trigger is a message of its own.
    const plain = await Promise.all([trigger(stack.url, undefined), trigger(urlB, undefined), trigger(stack.url, `${key}-2`)]);
    expect(new Set(await Promise.all(plain.map(async (r) => (await r.json()).msgId))).size).toBe(3);
  });

  it('refuses the key with another body (422), whitespace aside', async () => {
    const key = `order-${randomUUID()}`;
    const body = carouselBody(stack.seed);
    expect((await trigger(stack.url, key, body)).status).toBe(200);
    const other = await trigger(urlB, key, carouselBody(stack.seed, 3, '+919876543211'));
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ message: 'This Idempotency-Key was already used with a different request body', status: 'error' });

    const spaced = await fetch(`${urlB}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey, 'idempotency-key': key },
      body: JSON.stringify(body, null, 2),
    });
    expect(spaced.status).toBe(200);
  });

  it('answers 409 to a repeat while the first request is still running, then the first answer', async () => {
    const key = `order-${randomUUID()}`;
    const before = await jobs();
    const holder = new pg.Client({ connectionString: stack.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE templates IN ACCESS EXCLUSIVE MODE'); // the first trigger waits on its template
      const first = trigger(stack.url, key);
      await until(async () => ((await redis.exists(recordKey(key))) === 1 ? true : undefined), 5000, 'the first trigger claiming its key');
      const during = await trigger(urlB, key);
      expect(during.status).toBe(409);
      expect(await during.json()).toEqual({ message: 'A trigger with this Idempotency-Key is still being processed; retry later', status: 'error' });
      expect(during.headers.get('retry-after')).toBe('1');
      await holder.query('ROLLBACK');
      const firstAnswer = await first;
      expect(firstAnswer.status).toBe(200);
      const { msgId } = await firstAnswer.json();
      expect((await (await trigger(urlB, key)).json()).msgId).toBe(msgId);
    } finally {
      await holder.end();
    }
    expect((await jobs()) - before).toBe(1);
  });

  it('does not keep a failure: a key whose trigger was refused or could not be checked runs again', async () => {
    const key = `order-${randomUUID()}`;
    const invalid = await trigger(stack.url, key, { ...carouselBody(stack.seed), userDetails: { number: 'x' } });
    expect(invalid.status).toBe(400);
    const unknownTemplate = await trigger(stack.url, key, { ...carouselBody(stack.seed), notification: { ...carouselBody(stack.seed).notification, templateId: randomUUID() } });
    expect(unknownTemplate.status).toBe(400);
    expect(await redis.exists(recordKey(key))).toBe(0);
    const valid = await trigger(urlB, key);
    expect(valid.status).toBe(200);
  });

  it('lets a repeat take over a key whose first request died before queueing, and replays one that died after', async () => {
    const body = JSON.stringify(carouselBody(stack.seed));
    const { createHash } = await import('node:crypto');
    const f = createHash('sha256').update(body).digest('hex');

    const died = `order-${randomUUID()}`;
    await redis.set(recordKey(died), JSON.stringify({ f, m: randomUUID(), t: Date.now() - 61_000 }), 'PX', 86_400_000);
    const retaken = await trigger(stack.url, died);
    expect(retaken.status).toBe(200);
    const { msgId } = await retaken.json();
    expect(JSON.parse((await redis.get(recordKey(died)))!)).toMatchObject({ f, m: msgId });

    const recent = `order-${randomUUID()}`;
    await redis.set(recordKey(recent), JSON.stringify({ f, m: randomUUID(), t: Date.now() - 1000 }), 'PX', 86_400_000);
    expect((await trigger(urlB, recent)).status).toBe(409);

    // Queued, but the gateway died before it answered: the record never learnt the outcome; the job tells.
    const answeredLost = `order-${randomUUID()}`;
    await redis.set(recordKey(answeredLost), JSON.stringify({ f, m: msgId, t: Date.now() - 1000 }), 'PX', 86_400_000);
    const replay = await trigger(urlB, answeredLost);
    expect(replay.status).toBe(200);
    expect((await replay.json()).msgId).toBe(msgId);
  });

  it('refuses keys that are empty, longer than 255 characters or not visible ASCII (400)', async () => {
    const check = async (res: Response) => {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: 'Idempotency-Key must be 1-255 visible ASCII characters', status: 'error' });
      expect(res.headers.get('ratelimit-limit')).toBe('2000');
    };
    await check(await trigger(stack.url, 'k'.repeat(256)));
    await check(await trigger(stack.url, ''));
    await check(await trigger(urlB, 'with space'));
    await check(await trigger(urlB, 'tab\there'));
    expect((await trigger(stack.url, 'k'.repeat(255))).status).toBe(200);
    // fetch refuses to send control characters; a raw request can, and Node's HTTP parser refuses it before the gateway sees it.
    const raw = await rawTrigger(stack.url, 'ctl\x01key');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
  });

  function rawTrigger(base: string, key: string): Promise<string> {
    const { hostname, port } = new URL(base);
    const body = JSON.stringify(carouselBody(stack.seed));
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /api/engagements/notifications/v2/push?bot=${stack.seed.botId} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
            `x-api-key: ${stack.seed.apiKey}\r\nidempotency-key: ${key}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      });
      let answer = '';
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }
});
