import { setTimeout as sleep } from 'node:timers/promises';
import { register } from 'prom-client';
import { CoreEnv, WhatsAppEnv } from '@platform/config';
import { type RedisClient, whatsappPaceKeys } from '@platform/queue';
import { createTestRedisEnv, testRedis, until } from '@platform/testing';
import { SenderPacer } from '@platform/whatsapp';
import { PACE_SCRIPT, SLOW_DOWN_SCRIPT } from '../libs/whatsapp/src/pacing/pace-scripts.js';

const RATE = 3;

/** Resolves once the wall clock (the one Redis and the Cloud API count seconds by) has entered a new second. */
const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 20);

/**
 * The pacer against a real Redis: a send counts in every second it is still in flight at the start of,
 * since it may land at Meta in any of them, however long it takes; one whose answer never comes stops
 * counting once it can no longer land (the HTTP timeout).
 */
describe('SenderPacer: sends counted until their answer is back', () => {
  let redis: RedisClient;
  let env: Record<string, string>;
  const pacers: SenderPacer[] = [];

  const pacer = (timeoutMs = 10_000) => {
    const p = new SenderPacer(env as unknown as CoreEnv, { WHATSAPP_TIMEOUT_MS: timeoutMs } as WhatsAppEnv);
    pacers.push(p);
    return p;
  };
  /** A send the test answers when it likes; `answer()` ends it. */
  const hangingSend = () => {
    let answer!: () => void;
    const done = new Promise<string>((resolve) => (answer = () => resolve('answered')));
    return { send: () => done, answer };
  };
  const inFlight = (phoneNumberId: string) => redis.zcard(whatsappPaceKeys(env, phoneNumberId).sending);
  const immediate = async () => 'sent';

  beforeAll(async () => {
    env = await createTestRedisEnv();
    redis = testRedis(env);
  });

  afterAll(async () => {
    for (const p of pacers) await p.onApplicationShutdown();
    redis?.disconnect();
  });

  it('a second begins with the sends still in flight: it lets none more through until they are answered and a new second begins', async () => {
    const p = pacer();
    const hanging = Array.from({ length: RATE }, hangingSend);
    const started = hanging.map((h) => p.sendCounted('pn-carry', RATE, h.send));
    await until(async () => ((await inFlight('pn-carry')) === RATE ? true : undefined), 10_000, 'all sends in flight');

    await nextSecond();
    expect(await p.sendCounted('pn-carry', RATE, immediate)).toMatchObject({ sent: false });

    for (const h of hanging) h.answer();
    expect(await Promise.all(started)).toEqual(hanging.map(() => ({ sent: true, value: 'answered' })));
    await until(async () => ((await inFlight('pn-carry')) === 0 ? true : undefined), 10_000, 'answers reported');
    // answered, but they may have landed in this second: it stays full
    expect(await p.sendCounted('pn-carry', RATE, immediate)).toMatchObject({ sent: false });

    await nextSecond();
    expect(await p.sendCounted('pn-carry', RATE, immediate)).toEqual({ sent: true, value: 'sent' });
  }, 120_000);

  it("replicas share a number's count; another number is counted apart", async () => {
    const [a, b] = [pacer(), pacer()];
    const hanging = Array.from({ length: RATE }, hangingSend);
    const started = hanging.map((h) => a.sendCounted('pn-shared', RATE, h.send));
    await until(async () => ((await inFlight('pn-shared')) === RATE ? true : undefined), 10_000, 'all sends in flight');
    await nextSecond();
    expect(await b.sendCounted('pn-shared', RATE, immediate)).toMatchObject({ sent: false });
    expect(await b.sendCounted('pn-other', RATE, immediate)).toEqual({ sent: true, value: 'sent' });
    for (const h of hanging) h.answer();
    await Promise.all(started);
  }, 120_000);

  it('a send allowed to wait goes in the first second with room', async () => {
    const p = pacer();
    const order: string[] = [];
    const hanging = hangingSend();
    const first = p.sendCounted('pn-wait', 1, hanging.send);
    await until(async () => ((await inFlight('pn-wait')) === 1 ? true : undefined), 10_000, 'first send in flight');
    const waiting = p.sendCounted('pn-wait', 1, async () => order.push('second sent'), 10_000);
    await nextSecond();
    await nextSecond();
    order.push('first answered');
    hanging.answer();
    await first;
    expect(await waiting).toMatchObject({ sent: true });
    expect(order).toEqual(['first answered', 'second sent']);
  }, 120_000);

  it('a send whose answer never comes (its worker died) stops counting after the HTTP timeout', async () => {
    const p = pacer(100); // counted for 1.1 s at most
    for (let i = 0; i < RATE; i++) void p.sendCounted('pn-dead', RATE, () => new Promise(() => undefined));
    await until(async () => ((await inFlight('pn-dead')) === RATE ? true : undefined), 10_000, 'all sends in flight');
    await sleep(1200);
    await nextSecond();
    expect(await p.sendCounted('pn-dead', RATE, immediate)).toEqual({ sent: true, value: 'sent' });
  }, 120_000);

  it('reserves no slot for a number far below its rate, and again once it is busy', async () => {
    const p = pacer();
    const held = () => redis.zcard(whatsappPaceKeys(env, 'pn-quiet').held);
    // Unknown load: slots are reserved (20 jobs at 10/s: the later ones wait for theirs).
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => p.reserve('pn-quiet', `a${i}`, 10)));
    expect(first.filter((d) => !d.go).length).toBeGreaterThan(0);
    expect(await held()).toBeGreaterThan(0);
    await redis.del(whatsappPaceKeys(env, 'pn-quiet').held, whatsappPaceKeys(env, 'pn-quiet').state);

    // Two seconds with one send each at 100/s: the number is quiet, so jobs go without a slot.
    await nextSecond();
    await p.sendCounted('pn-quiet', 100, immediate);
    await nextSecond();
    await p.sendCounted('pn-quiet', 100, immediate);
    const quiet = await Promise.all(Array.from({ length: 300 }, (_, i) => p.reserve('pn-quiet', `b${i}`, 100)));
    expect(quiet.every((d) => d.go)).toBe(true);
    expect(await held()).toBe(0);

    // The count then reaches half the rate: slots again.
    await Promise.all(Array.from({ length: 60 }, () => p.sendCounted('pn-quiet', 100, immediate)));
    const busy = await Promise.all(Array.from({ length: 300 }, (_, i) => p.reserve('pn-quiet', `c${i}`, 100)));
    expect(busy.filter((d) => !d.go).length).toBeGreaterThan(0);
  }, 120_000);

  it('a job let go with a permit has its send counted already: it sends without asking again, and a permit given back unused frees its place', async () => {
    const p = pacer();
    const scriptCalls = async () => (await register.getSingleMetric('whatsapp_pace_script_calls_total')!.get()).values[0]?.value ?? 0;
    await nextSecond();
    // Three jobs at 3/s early in a second: one goes now, two wait in memory for slots of this second; all three counted.
    const decisions = await Promise.all(['j1', 'j2', 'j3'].map((id) => p.reserve('pn-permit', id, RATE)));
    const permits = decisions.map((d) => (d.go ? d.permit : undefined));
    expect(permits.every((permit) => permit !== undefined)).toBe(true);
    expect(await inFlight('pn-permit')).toBe(RATE);
    // The number's seconds are full with them (in this second, or in flight at the next one's start).
    expect(await p.sendCounted('pn-permit', RATE, immediate)).toMatchObject({ sent: false });
    p.release(permits[2]);
    await until(async () => ((await inFlight('pn-permit')) === RATE - 1 ? true : undefined), 10_000, 'permit given back');
    expect(await p.sendCounted('pn-permit', RATE, immediate)).toEqual({ sent: true, value: 'sent' });
    await until(async () => ((await inFlight('pn-permit')) === 2 ? true : undefined), 10_000, 'answer reported');
    const before = await scriptCalls();
    const sent = await Promise.all(permits.slice(0, 2).map((permit) => p.sendCounted('pn-permit', RATE, async () => scriptCalls(), 0, permit)));
    expect(sent).toEqual([
      { sent: true, value: before },
      { sent: true, value: before },
    ]);
    await until(async () => ((await inFlight('pn-permit')) === 0 ? true : undefined), 10_000, 'answers reported');
  }, 30_000);

  it('one pace script call sends the same Redis commands whatever the number of asks it carries (no ZADD, ZREM or ZSCORE per ask)', async () => {
    const keys = whatsappPaceKeys(env, 'pn-commands');
    // The script with each redis.call counted, the count returned last.
    const counted = PACE_SCRIPT.replace(/redis\.call\(/g, 'counted(').replace(/return out\s*$/, 'out[#out + 1] = calls\nreturn out\n');
    const script = `local calls = 0\nlocal function counted(...) calls = calls + 1 return redis.call(...) end\n${counted}`;
    /** Commands of one call with n landed sends, n released permits, n sends to take and n reservations. */
    const commands = async (n: number, tag: string) => {
      const ids = (kind: string) => Array.from({ length: n }, (_, i) => `${tag}-${kind}-${i}`);
      // the sends and permits it reports exist first (taken, reserved with room in memory)
      await redis.eval(PACE_SCRIPT, 3, keys.state, keys.held, keys.sending, 10_000, 150, 60_000, 1000, 2 * n, 0, 0, n, ...ids('landed'), ...ids('released'));
      const reply = (await redis.eval(
        script,
        3,
        keys.state,
        keys.held,
        keys.sending,
        10_000,
        150,
        60_000,
        1000,
        n,
        n,
        n,
        n,
        ...ids('landed'),
        ...ids('released').map((id) => `r:${id}`),
        ...ids('take'),
        ...ids('job'),
      )) as number[];
      return reply.at(-1);
    };
    const one = await commands(1, 'a');
    expect(one).toBeLessThanOrEqual(14);
    // one ZCOUNT more or less: the call that first sees a new second counts the sends in flight then
    expect(Math.abs((await commands(50, 'b'))! - one!)).toBeLessThanOrEqual(1);
  }, 30_000);

  it('a new job that would wait in the delayed set goes now in the places of its second whose jobs are late, and waits once the second is on time', async () => {
    const keys = whatsappPaceKeys(env, 'pn-missed');
    const rate = 100;
    const redisNow = async () => {
      const [s, us] = await redis.time();
      return Number(s) * 1000 + Math.floor(Number(us) / 1000);
    };
    /**
     * A new job's reservation made 200-600 ms into a second (its `gone` go's so far) while the number's
     * slots run 10 s ahead (a burst was queued): its answer, 0 to go now. Hold 0 ms, room 0: nothing waits
     * in memory. Tried again when the call did not land inside that second's usable part (a loaded host).
     */
    const reserveWith = async (gone: number): Promise<number> => {
      for (let tries = 0; tries < 50; tries++) {
        const t = await redisNow();
        if (t % 1000 < 200 || t % 1000 > 600) {
          await sleep((1300 - (t % 1000)) % 1000);
          continue;
        }
        const sec = Math.floor(t / 1000);
        await redis.hset(keys.state, 'next', t + 10_000, 'rsec', sec + 10, 'rn', 1, 'gsec', sec, 'gn', gone);
        const [answer] = (await redis.eval(PACE_SCRIPT, 3, keys.state, keys.held, keys.sending, rate, 150, 10_000, 0, 0, 0, 0, 0, `new-${gone}-${tries}`)) as number[];
        const after = await redisNow();
        if (Math.floor(after / 1000) === sec && after % 1000 < 850) return answer;
      }
      throw new Error('no reservation landed within one second');
    };
    // 200 ms in, at least 18 of the second's 100 slots are due 50 ms ago (MISSED_AFTER_MS): none went, so
    // their jobs are late and a new job takes a place now.
    expect(await reserveWith(0)).toBe(0);
    expect(Number(await redis.hget(keys.state, 'gn'))).toBe(1);
    // The second has let its whole rate go: the new job waits for its slot, 10 s ahead.
    expect(await reserveWith(rate)).toBeGreaterThan(9_000);
  }, 120_000);

  it('after 130429 the rate halves, 130429s answering the same sends halve it once, and it doubles back in steps', async () => {
    const keys = whatsappPaceKeys(env, 'pn-slow');
    const step = 1000;
    const slowDown = (settleMs: number) => redis.eval(SLOW_DOWN_SCRIPT, 1, keys.state, 0.5, step, settleMs) as Promise<string>;
    /** The rate in force, as the pace script applies it (its last answer when a send is taken; no wait in memory: hold 0 ms, room 0). */
    const rateNow = async () => ((await redis.eval(PACE_SCRIPT, 3, keys.state, keys.held, keys.sending, 100, 150, 1000, 0, 0, 0, 0, 1, `s${Date.now()}`)) as number[]).at(-1);
    expect(await slowDown(1000)).toBe('0.5');
    expect(await slowDown(1000)).toBe('0.5'); // within the settle time: the same slow-down
    expect(await slowDown(0)).toBe('0.25'); // a later 130429 lowers it again
    const at = Date.now();
    expect(await rateNow()).toBe(25);
    // What a campaign's planner sizes its backlog by: the share the pace script applies.
    const p = pacer();
    expect(await p.share('pn-slow')).toBe(0.25);
    expect(await p.share('pn-never-slowed')).toBe(1);
    await sleep(at + step + 100 - Date.now());
    expect(await rateNow()).toBe(50);
    expect(await p.share('pn-slow')).toBe(0.5);
    await sleep(at + 2 * step + 100 - Date.now());
    expect(await rateNow()).toBe(100);
    // A slow-down long past counts for nothing.
    await redis.hset(keys.state, 'slow_at', 0, 'factor', 0.25, 'slow_step', step);
    expect(await rateNow()).toBe(100);
    expect(await p.share('pn-slow')).toBe(1);
  }, 120_000);
});
