import { connect } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { QueueNames } from '@platform/contracts';
import type { RedisClient } from '@platform/queue';
import { carouselBody, until, carouselJobCount, testQueue, testRedis, waitForMessageStatus } from '@platform/testing';
import { LegacyKeyClaims } from '../apps/gateway/src/carousel/legacy-key-claims.js';
import { idempotencyClaim } from '../apps/gateway/src/carousel/trigger-idempotency.js';
import { redisKey } from '@platform/queue';
import { useStack } from './e2e-stack.js';

/** Idempotency-Key on the carousel trigger: one message per key and body, whichever replica a repeat reaches. */
describe('carousel trigger Idempotency-Key, across two gateway replicas', () => {
  // No catalog cache: a trigger reads its template from Postgres, where a test can hold it or change it.
  const stack = useStack({ seed: true, cloud: true, worker: true, env: { CATALOG_CACHE_MS: '0' } }, 120_000);
  let urlB: string;
  let redis: RedisClient;
  let queue: ReturnType<typeof testQueue>;

  beforeAll(async () => {
    urlB = (await stack.replica()).url;
    redis = testRedis(stack.env);
    queue = testQueue(QueueNames.carouselDispatch, stack.env);
    stack.defer(() => redis.disconnect());
    stack.defer(() => queue.close());
  });

  const trigger = (base: string, key: string | undefined, body: object = carouselBody(stack.seed)) =>
    fetch(`${base}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    });
  /** The Redis key BullMQ keeps a claimed Idempotency-Key under (its deduplication key). */
  const claimKey = (key: string) => queue.toKey(`de:${idempotencyClaim(stack.seed.botId, key).id}`);
  const holder = (key: string) => queue.getDeduplicationJobId(idempotencyClaim(stack.seed.botId, key).id);

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
    expect(await holder(key)).toBe(firstBody.msgId);
    const ttl = await redis.pttl(claimKey(key));
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
    expect(spaced.headers.get('idempotent-replayed')).toBe('true');
  });

  it('queues one message for repeats sent together to both replicas, and answers each with its id', async () => {
    const key = `order-${randomUUID()}`;
    const before = await jobs();
    const holder = new pg.Client({ connectionString: stack.env.DATABASE_URL });
    await holder.connect();
    try {
      // Every trigger waits on its template until the lock goes (a replica's triggers share one read of it): they reach Redis together.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE templates IN ACCESS EXCLUSIVE MODE');
      const answers = [stack.url, urlB, stack.url, urlB].map((base) => trigger(base, key));
      await until(
        async () => ((await holder.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'templates'::regclass`)).rows[0].n >= 2 ? true : undefined),
        10_000,
        'both replicas waiting on the template',
      );
      await holder.query('ROLLBACK');
      const settled = await Promise.all(answers);
      expect(settled.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(await Promise.all(settled.map(async (r) => (await r.json()).msgId))).size).toBe(1);
      expect(settled.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(3);
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
    expect(await holder(key)).toBeNull();
    const valid = await trigger(urlB, key);
    expect(valid.status).toBe(200);
  });

  it('replays the first answer after its template changed, rather than refusing the repeat', async () => {
    const key = `order-${randomUUID()}`;
    const first = await trigger(stack.url, key);
    expect(first.status).toBe(200);
    const { msgId } = await first.json();
    const db = new pg.Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(`UPDATE templates SET status = 'PAUSED' WHERE id = $1`, [stack.seed.templateId]);
      expect((await trigger(stack.url, `order-${randomUUID()}`)).status).toBe(400); // a new trigger is refused
      const again = await trigger(urlB, key);
      expect(again.status).toBe(200);
      expect((await again.json()).msgId).toBe(msgId);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await db.query(`UPDATE templates SET status = 'APPROVED' WHERE id = $1`, [stack.seed.templateId]);
      await db.end();
    }
  });

  it('replays from the message row once the job is gone, and refuses another body there too', async () => {
    const key = `order-${randomUUID()}`;
    const body = carouselBody(stack.seed);
    const first = await trigger(stack.url, key, body);
    const { msgId } = await first.json();
    await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent']);
    const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('base64url');
    const db = new pg.Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      expect((await db.query('SELECT idempotency_fingerprint AS f FROM messages WHERE id = $1', [msgId])).rows[0].f).toBe(fingerprint);
    } finally {
      await db.end();
    }
    // As BullMQ's retention removes a finished job: its hash goes, the key's claim stays.
    await redis.del(queue.toKey(msgId));
    expect(await queue.getJob(msgId)).toBeUndefined();
    const again = await trigger(urlB, key, body);
    expect(again.status).toBe(200);
    expect((await again.json()).msgId).toBe(msgId);
    expect((await trigger(urlB, key, carouselBody(stack.seed, 3, '+919876543211'))).status).toBe(422);
  });

  it("carries keys claimed by an earlier version's gateways over: a queued message replays, a never-queued one runs again", async () => {
    const legacyRecord = (key: string) => redisKey(stack.env, `trigger-idem:{${stack.seed.botId}}:${key}`);
    const queued = await trigger(stack.url, undefined);
    const { msgId } = await queued.json();
    const [kept, died] = [`order-${randomUUID()}`, `order-${randomUUID()}`];
    // As an earlier gateway wrote them: the body's hex fingerprint, the message id, the claim time.
    const record = (m: string) => JSON.stringify({ f: 'a'.repeat(64), m, t: Date.now() - 1000 });
    await redis.set(legacyRecord(kept), record(msgId), 'PX', 3600_000);
    await redis.set(legacyRecord(died), record(randomUUID()), 'PX', 3600_000);

    expect(await stack.gateway.get(LegacyKeyClaims, { strict: false }).carryOver()).toBeGreaterThanOrEqual(1);
    expect(await holder(kept)).toBe(msgId);
    const claimTtl = await redis.pttl(claimKey(kept));
    expect(claimTtl).toBeGreaterThan(3500_000);
    expect(claimTtl).toBeLessThanOrEqual(3600_000);
    expect(await holder(died)).toBeNull();

    const replay = await trigger(urlB, kept);
    expect(replay.status).toBe(200);
    expect((await replay.json()).msgId).toBe(msgId);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const fresh = await trigger(urlB, died);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
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
