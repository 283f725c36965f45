import { randomUUID } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { REQUEST_REDIS } from '@platform/queue';
import { SeededBot, carouselBody, createTestEnv, seedCarouselBot } from '@platform/testing';
import { QuotaLeases } from '../apps/gateway/src/carousel/quota-lease.js';

/** A busy bot's triggers, with an Idempotency-Key or without, pass its quota on places leased ahead, not each with a Redis call. */
describe('carousel trigger quota leased ahead in a running gateway', () => {
  let gateway: NestFastifyApplication;
  let url: string;
  let seed: SeededBot;
  const gateCalls = { n: 0 };
  /** The leases' clock (Date.now at the start): it moves 1 ms with each trigger the test sends. */
  let clock = 0;

  beforeAll(async () => {
    const env = await createTestEnv({ TRIGGER_QUOTA_PER_MINUTE: '1000000' });
    gateway = await createGateway(env);
    url = await listenGateway(gateway);
    seed = await seedCarouselBot(gateway);
    const redis = gateway.get<{ triggerGate: (...a: unknown[]) => Promise<unknown> }>(REQUEST_REDIS);
    const gate = redis.triggerGate.bind(redis);
    redis.triggerGate = (...a: unknown[]) => (gateCalls.n++, gate(...a));
    // A lease is sized by the bot's demand in the last 100 ms slice. On a loaded host fewer triggers fall
    // in each slice (a stall of 200 ms forgets the demand), so on the wall clock the count of calls says
    // more about the host than about the gateway. The leases' clock here moves 1 ms with each trigger
    // sent: a slice is 100 triggers, and the count depends on the code alone.
    clock = Date.now();
    gateway.get(QuotaLeases, { strict: false }).now = () => clock;
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it.each([
    ['without a key', false],
    ['each with a key of its own', true],
  ])(
    'asks Redis for the quota far less often than it triggers (%s), and states a count that only grows',
    async (_, keyed) => {
      const body = JSON.stringify(carouselBody(seed));
      clock += 1000; // the demand of an earlier case is forgotten
      const remainingBefore = Number((await trigger(body)).headers.get('ratelimit-remaining'));
      const remaining: number[] = [];
      // A number of triggers, not a time window: a loaded host is slower, not differently batched.
      const TRIGGERS = 400;
      // The first slice's 100 triggers have no demand to lease on: each batch of them is a call.
      const WARM_UP = 100;
      let callsAfterWarmUp = 0;
      const loop = async () => {
        while (remaining.length < TRIGGERS) {
          clock += 1;
          const res = await trigger(body, keyed ? `lease-${randomUUID()}` : undefined);
          expect(res.status).toBe(200);
          expect(res.headers.get('idempotent-replayed')).toBeNull();
          remaining.push(Number(res.headers.get('ratelimit-remaining')));
          if (remaining.length === WARM_UP) callsAfterWarmUp = gateCalls.n;
          await res.arrayBuffer();
        }
      };
      await Promise.all(Array.from({ length: 20 }, () => loop()));
      // Batching alone (one call per turn) made about one call per 7 triggers here, and makes about 30 in
      // the first slice; after it, each lease of about a slice's demand is one call.
      const steady = gateCalls.n - callsAfterWarmUp;
      console.log(`quota calls: ${callsAfterWarmUp} for the first ${WARM_UP} triggers, ${steady} for the next ${TRIGGERS - WARM_UP}`);
      expect(steady).toBeLessThan((TRIGGERS - WARM_UP) / 20);
      expect(new Set(remaining).size).toBe(remaining.length); // each trigger had a place of its own
      expect(Math.min(...remaining)).toBeGreaterThanOrEqual(remainingBefore - remaining.length - 1000);
    },
    120_000,
  );

  function trigger(body: string, key?: string) {
    return fetch(`${url}/api/engagements/notifications/v2/push?bot=${seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': seed.apiKey, ...(key && { 'idempotency-key': key }) },
      body,
    });
  }
});
