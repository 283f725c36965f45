import { setTimeout as sleep } from 'node:timers/promises';
import type { CoreEnv, PushEnv } from '@platform/config';
import { type RedisClient, fcmPaceKey } from '@platform/queue';
import { createTestRedisEnv, testRedis } from '@platform/testing';
import { FcmPacer } from '../apps/push-service/src/fcm/fcm-pacer.js';

// 6,000 a minute: the pacer hands out 100 a second, shared by every pacer (push-service replica).
const QUOTA = 6000;
const SHARE = QUOTA / 60;
const SLOW_DOWN_MS = 3000;

/** Resolves once the wall clock (Redis' too: same host) has entered a new second. */
const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 20);

/**
 * FcmPacer against a real Redis, two instances standing for two push-service replicas: they share one
 * budget per Firebase project, a 429 holds both for its Retry-After, then both send at half the quota
 * for PUSH_FCM_SLOW_DOWN_MS, after which the full quota comes back without anyone acting.
 */
describe('FcmPacer: one budget per Firebase project across replicas', () => {
  let env: Record<string, string>;
  const clients: RedisClient[] = [];
  let a: FcmPacer;
  let b: FcmPacer;

  const pacer = () => {
    const redis = testRedis(env);
    clients.push(redis);
    return new FcmPacer(redis, env as unknown as CoreEnv, { FCM_TIMEOUT_MS: 5000, PUSH_FCM_SLOW_DOWN_MS: SLOW_DOWN_MS } as PushEnv);
  };

  /**
   * Both pacers ask for chunks of `chunk` messages of `project` as fast as they are answered until
   * `untilMs` (Date.now), reporting each granted chunk landed at once (as a fast FCM would answer it).
   * Returns the messages granted per second, by the second each grant was answered in: a grant is made
   * only in a second's first 900 ms (EDGE_MARGIN_MS), so its answer lands in that second.
   */
  async function drain(project: string, untilMs: number, chunk = 7, grantedAt: number[] = []): Promise<Map<number, number>> {
    const perSecond = new Map<number, number>();
    const loop = async (p: FcmPacer) => {
      while (Date.now() < untilMs) {
        const { granted, waitMs, chunk: id } = await p.take(project, QUOTA, chunk);
        const at = Date.now();
        const sec = Math.floor(at / 1000);
        if (granted > 0) {
          grantedAt.push(at);
          perSecond.set(sec, (perSecond.get(sec) ?? 0) + granted);
          p.landed(project, id);
        }
        if (granted < chunk) await sleep(Math.min(Math.max(1, waitMs), Math.max(1, untilMs - Date.now())));
      }
    };
    await Promise.all([loop(a), loop(b), loop(a), loop(b)]);
    return perSecond;
  }

  beforeAll(async () => {
    env = await createTestRedisEnv();
    a = pacer();
    b = pacer();
  });

  afterAll(() => clients.forEach((c) => c.disconnect()));

  it('hands out floor(quota / 60) a second in all, whichever replica asks, and uses all of it', async () => {
    // Never above the share, in any attempt. Using all of it needs the test's own loops to ask in time:
    // a stall of the host near a second's end loses that second's rest, so up to three attempts (each
    // on a project of its own) may show it; a pacer that never hands out a whole second fails all three.
    for (let attempt = 1; ; attempt++) {
      await nextSecond();
      const first = Math.floor(Date.now() / 1000);
      const perSecond = await drain(`project-shared-${attempt}`, (first + 3) * 1000);
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(SHARE);
      const seconds = [first, first + 1, first + 2].map((s) => perSecond.get(s) ?? 0);
      if (attempt === 3 || seconds.every((n) => n === SHARE)) {
        expect(seconds).toEqual([SHARE, SHARE, SHARE]);
        break;
      }
    }
  });

  it('keeps each project to its own budget', async () => {
    await nextSecond();
    const second = Math.floor(Date.now() / 1000);
    const [one, two] = await Promise.all([drain('project-one', (second + 1) * 1000), drain('project-two', (second + 1) * 1000)]);
    // Each project got its whole share in the second (a grant answered late on a loaded host lands in the next one, out of that second's budget).
    expect([one.get(second), two.get(second)]).toEqual([SHARE, SHARE]);
    expect(Math.max(...one.values(), ...two.values())).toBeLessThanOrEqual(SHARE);
  });

  it('after a 429, holds every replica for the Retry-After, then sends at half the quota for the slow-down, then at the full quota again by itself', async () => {
    const holdMs = 900;
    await a.quotaExceeded('project-429', holdMs);
    // The storm's other 429s (answers to messages already in flight) neither lengthen the hold much nor slow the pace further.
    await b.quotaExceeded('project-429', holdMs);
    const state = await clients[0].hgetall(fcmPaceKey(env as unknown as CoreEnv, 'project-429'));
    expect(Number(state.factor)).toBe(0.5);

    const held = await b.take('project-429', QUOTA, 10);
    expect(held.granted).toBe(0);
    expect(held.waitMs).toBeGreaterThan(0);
    expect(held.waitMs).toBeLessThanOrEqual(holdMs);

    const holdUntil = Number(state.hold_until);
    const slowUntil = Number(state.slow_until);
    const grantedAt: number[] = [];
    const perSecond = await drain('project-429', (Math.floor(slowUntil / 1000) + 3) * 1000, 7, grantedAt);
    // Nothing before the hold ends; half the share in each whole second of the slow-down; the full share once it is over.
    expect(grantedAt.filter((t) => t < holdUntil)).toEqual([]);
    const slowSeconds = [...perSecond].filter(([sec]) => sec * 1000 >= holdUntil && (sec + 1) * 1000 <= slowUntil);
    expect(slowSeconds.length).toBeGreaterThanOrEqual(2); // the slow-down's 3 s hold at least 2 whole seconds
    for (const [, n] of slowSeconds) expect(n).toBe(SHARE / 2);
    const recovered = Math.floor(slowUntil / 1000) + 1;
    expect([recovered, recovered + 1].map((sec) => perSecond.get(sec) ?? 0)).toEqual([SHARE, SHARE]);
  }, 120_000);
});
