import { PrismaService } from '@platform/database';
import { whatsappPaceKeys } from '@platform/queue';
import { THROTTLING_REPLIES } from '@platform/sandbox';
import { testRedis, until } from '@platform/testing';
import { SLOW_DOWN_MS } from '@platform/whatsapp';
import { useStack } from './e2e-stack.js';
import { createCampaign, listAudience, number, untilDrained } from './campaign-support.js';

const RATE = 40;
const RECIPIENTS = 700;

/**
 * The 130429 rule at the receiving end: while Meta answers 130429 ("too many messages from this number"),
 * the number's pace drops (halved, once per second of 130429s), then doubles back every SLOW_DOWN_MS
 * without a new one, in steps, to the configured rate; the throttled messages go later, none lost and
 * none twice.
 */
describe('campaigns: the pace drops on 130429 and recovers by itself', () => {
  const stack = useStack({ cloud: true, seed: true, worker: true });

  it('drops, comes back in steps to the configured rate, and sends every recipient exactly once', async () => {
    const db = stack.gateway.get(PrismaService, { strict: false });
    await db.query({ text: `UPDATE channel_senders SET throughput = ${RATE} WHERE bot_id = $1`, values: [stack.seed.botId] });
    const c = await createCampaign(stack.url, stack.seed, { sendShare: 0.9 });
    await listAudience(
      stack.url,
      stack.seed,
      c.id,
      Array.from({ length: RECIPIENTS }, (_, i) => ({ number: number(95, i), tz: 'UTC', img: `https://cdn.example.com/${i}.jpg` })),
    );
    const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/campaigns/${c.id}/start`, { method: 'POST', headers: { authorization: `Bearer ${stack.seed.apiKey}` } });
    expect(res.status).toBe(200);
    await until(async () => (stack.cloud.arrivals.length >= 120 ? true : undefined), 30_000, 'the campaign sending at its rate');

    // Meta answers 130429 until the number's rate has been halved twice (130429s a second apart).
    const redis = testRedis(stack.env);
    const state = whatsappPaceKeys(stack.env, stack.seed.phoneNumberId).state;
    let slow: { slowAt: number; factor: number };
    try {
      stack.cloud.outage = THROTTLING_REPLIES[130429];
      slow = await until(
        async () => {
          const [slowAt, factor] = await redis.hmget(state, 'slow_at', 'factor');
          return Number(factor) > 0 && Number(factor) <= 0.25 ? { slowAt: Number(slowAt), factor: Number(factor) } : undefined;
        },
        20_000,
        'two slow-downs',
      );
      stack.cloud.outage = undefined;
    } finally {
      stack.cloud.outage = undefined;
      redis.disconnect();
    }

    const done = await untilDrained(stack.url, stack.seed, c.id, 120_000, stack.env);

    // Arrivals at the Cloud API per wall-clock second.
    const perSecond = new Map<number, number>();
    for (const a of stack.cloud.arrivals) perSecond.set(Math.floor(a.at / 1000), (perSecond.get(Math.floor(a.at / 1000)) ?? 0) + 1);
    const busiest = (from: number, to: number) => Math.max(0, ...[...perSecond].filter(([s]) => s * 1000 >= from && (s + 1) * 1000 <= to).map(([, n]) => n));
    const steps = Math.round(Math.log2(1 / slow.factor));
    // Printed before the checks, so that a failure shows the whole series (ms from the last slow-down: sends).
    const series = [...perSecond].sort(([a], [b]) => a - b).map(([s, n]) => `${s * 1000 - slow.slowAt}:${n}`);
    console.log(`arrivals per second: ${series.join(' ')}`);
    const seen: string[] = [];
    for (let i = 0; i < steps; i++) {
      const bound = Math.floor(RATE * slow.factor * 2 ** i);
      const most = busiest(slow.slowAt + i * SLOW_DOWN_MS + 1000, slow.slowAt + (i + 1) * SLOW_DOWN_MS);
      seen.push(`${bound}/s step: busiest second ${most}`);
      expect(most).toBeLessThanOrEqual(bound);
    }
    // The rate came back in steps, and each step showed within a couple of seconds: the last step's window
    // (twice the first's rate) sent well over the first's. Jobs that took slots at the lowered rate keep
    // them when it doubles, so a backlog of many seconds of them would hold the old rate through most of
    // the window. Counted over the whole windows: on a loaded host the busiest second of each can be the same.
    const sentIn = (from: number, to: number) => [...perSecond].filter(([s]) => s * 1000 >= from && (s + 1) * 1000 <= to).reduce((sum, [, n]) => sum + n, 0);
    const last = sentIn(slow.slowAt + (steps - 1) * SLOW_DOWN_MS + 1000, slow.slowAt + steps * SLOW_DOWN_MS);
    const first = sentIn(slow.slowAt + 1000, slow.slowAt + SLOW_DOWN_MS);
    expect(last).toBeGreaterThanOrEqual(first * 1.4);
    const after = busiest(slow.slowAt + steps * SLOW_DOWN_MS + 1000, Date.now());
    expect(after).toBeGreaterThan(RATE * slow.factor * 2 ** (steps - 1)); // and then to the configured rate
    const before = busiest(0, slow.slowAt - 1000);
    console.log(`130429: ${RATE}/s (busiest second before ${before}) slowed to ${slow.factor}; ${seen.join(', ')}; after recovery busiest second ${after}`);

    // Every recipient exactly once, none lost.
    expect([...stack.cloud.accepted.values()].filter((ids) => ids.length !== 1)).toEqual([]);
    expect(stack.cloud.accepted.size).toBe(RECIPIENTS);
    expect(done.funnel).toMatchObject({ queued: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
  }, 180_000);
});
