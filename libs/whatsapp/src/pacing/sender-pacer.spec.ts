import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { CoreEnv, WhatsAppEnv, WorkerEnv } from '@platform/config';
import { RedisUnavailableError, type RedisClient } from '@platform/queue';
import {
  DELAYED_LEAD_MS,
  EDGE_MARGIN_MS,
  HOLD_IN_PROCESS_MS,
  PACE_BATCH_MS,
  PERMIT_FRESH_MS,
  REPORT_WAIT_MS,
  SLOW_DOWN_FACTOR,
  SLOW_DOWN_MS,
  SLOW_DOWN_SETTLE_MS,
  SenderPacer,
} from './sender-pacer.js';

const core = { REDIS_URL: 'redis://unused', REDIS_KEY_PREFIX: 'p:' } as CoreEnv;
const whatsapp = { WHATSAPP_TIMEOUT_MS: 4000 } as WhatsAppEnv;

/** One whatsappPace script call as the pacer made it. */
interface PaceCall {
  keys: string[];
  rate: number;
  margin: number;
  inFlightMs: number;
  holdMs: number;
  room: number;
  landed: string[];
  released: string[];
  takes: string[];
  reserves: string[];
}

/**
 * A Redis client standing in for the pace script: it records each call and answers what `answer` says
 * for it (one number per take and reservation; the fake adds the second's count and the rate, 1 and 80,
 * and no permits, unless the answer has them).
 */
function fakeRedis(answer: (call: PaceCall) => number[] | Promise<number[]>) {
  const calls: PaceCall[] = [];
  const slowDowns: unknown[][] = [];
  const redis = {
    on: () => redis,
    defineCommand: () => undefined,
    quit: async () => 'OK',
    whatsappPace: async (state: string, held: string, sending: string, ...args: Array<string | number>) => {
      const [rate, margin, inFlightMs, holdMs, room, nLanded, nReleased, nTakes, ...ids] = args;
      const [l, r, t] = [Number(nLanded), Number(nReleased), Number(nTakes)];
      const landed = ids.slice(0, l).map(String);
      const released = ids.slice(l, l + r).map(String);
      const takes = ids.slice(l + r, l + r + t).map(String);
      const reserves = ids.slice(l + r + t).map(String);
      const call = {
        keys: [state, held, sending],
        rate: Number(rate),
        margin: Number(margin),
        inFlightMs: Number(inFlightMs),
        holdMs: Number(holdMs),
        room: Number(room),
        landed,
        released,
        takes,
        reserves,
      };
      calls.push(call);
      const reply = await answer(call);
      const asked = takes.length + reserves.length;
      return reply.length > asked ? reply : [...reply, 1, 80];
    },
    whatsappSlowDown: async (...args: unknown[]) => {
      slowDowns.push(args);
      return '0.25';
    },
  };
  return { redis: redis as unknown as RedisClient, calls, slowDowns };
}

const goAll = (call: PaceCall) => [...call.takes, ...call.reserves].map(() => 0);
/**
 * Every take and reservation goes now, each reservation with its send counted (a permit). The second is
 * answered as in full use (80 of 80): a share below half would let the pacer skip Redis for the number
 * once a second boundary passed, and a test's outcome would hang on which second the host ran it in.
 */
const goWithPermits = (call: PaceCall) => [...goAll(call), 80, 80, ...call.reserves.map(() => 1)];
/** Long enough for the pacer's batch window to close and its call to be answered. */
const turn = () => new Promise((resolve) => setTimeout(resolve, PACE_BATCH_MS * 3));
/**
 * Waits until `done` holds of the calls (a report left alone goes after REPORT_WAIT_MS, or in the next
 * window near a second's end), then a little longer for any call that should not come; 2 s at most (a
 * loaded host's timers run late).
 */
async function reported(calls: PaceCall[], done: (calls: PaceCall[]) => boolean): Promise<void> {
  const until = Date.now() + 2000;
  while (!done(calls) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, PACE_BATCH_MS));
  await new Promise((resolve) => setTimeout(resolve, REPORT_WAIT_MS + PACE_BATCH_MS * 3));
}
const landedCount = (calls: PaceCall[]) => calls.reduce((n, c) => n + c.landed.length, 0);

describe('SenderPacer', () => {
  it("asks once per number per batch window, with that number's keys under its hash tag and the window's landed sends, takes and reservations", async () => {
    const { redis, calls } = fakeRedis(goAll);
    const pacer = new SenderPacer(core, whatsapp, redis);
    await Promise.all([pacer.reserve('pn-1', 'job-a', 80), pacer.reserve('pn-1', 'job-b', 80), pacer.reserve('pn-2', 'job-c', 20)]);
    expect(calls).toEqual([
      {
        keys: ['p:whatsapp-pace:{pn-1}', 'p:whatsapp-pace:{pn-1}:held', 'p:whatsapp-pace:{pn-1}:sending'],
        rate: 80,
        margin: EDGE_MARGIN_MS,
        inFlightMs: 5000,
        holdMs: HOLD_IN_PROCESS_MS,
        room: 2,
        landed: [],
        released: [],
        takes: [],
        reserves: ['job-a', 'job-b'],
      },
      expect.objectContaining({ keys: ['p:whatsapp-pace:{pn-2}', 'p:whatsapp-pace:{pn-2}:held', 'p:whatsapp-pace:{pn-2}:sending'], rate: 20, reserves: ['job-c'] }),
    ]);
  });

  it('lets a job go when its slot is now, and tells it how long to wait otherwise (at least 1 ms; DELAYED_LEAD_MS early when its slot is further)', async () => {
    const waits: Record<string, number> = { now: 0, near: 2 * DELAYED_LEAD_MS, later: 2500, barely: 0.2 };
    const { redis } = fakeRedis((call) => call.reserves.map((id) => waits[id]));
    const pacer = new SenderPacer(core, whatsapp, redis);
    expect(await Promise.all(['now', 'near', 'later', 'barely'].map((id) => pacer.reserve('pn-1', id, 80)))).toEqual([
      { go: true },
      { go: false, waitMs: 2 * DELAYED_LEAD_MS },
      { go: false, waitMs: 2500 - DELAYED_LEAD_MS },
      { go: false, waitMs: 1 },
    ]);
  });

  it('keeps a job whose slot is near (a negative answer) waiting in memory, then lets it go without asking again', async () => {
    const { redis, calls } = fakeRedis((call) => call.reserves.map(() => -40));
    const pacer = new SenderPacer(core, whatsapp, redis);
    const started = Date.now();
    expect(await pacer.reserve('pn-1', 'job-a', 1000)).toEqual({ go: true, heldMs: 40 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(39);
    expect(calls).toHaveLength(1);
  });

  it('offers memory places to at most all but a tenth of its concurrency of jobs at once, shared between the numbers of a window', async () => {
    const worker = { WORKER_CONCURRENCY: 4 } as WorkerEnv; // 3 places
    // Held 600 ms: long enough that they still wait when the next window asks, on a loaded host too.
    const { redis, calls } = fakeRedis((call) => call.reserves.map((_, i) => (i < call.room ? -600 : 500)));
    const pacer = new SenderPacer(core, whatsapp, redis, worker);
    const first = Promise.all([pacer.reserve('pn-1', 'a', 1000), pacer.reserve('pn-1', 'b', 1000), pacer.reserve('pn-2', 'c', 1000), pacer.reserve('pn-2', 'd', 1000)]);
    await turn();
    await turn();
    // The three places are all taken while those jobs wait: the next window's jobs get none.
    const second = await pacer.reserve('pn-1', 'e', 1000);
    expect(calls.map((c) => c.room)).toEqual([2, 1, 0]);
    expect(second).toEqual({ go: false, waitMs: 500 - DELAYED_LEAD_MS });
    expect(await first).toEqual([
      { go: true, heldMs: 600 },
      { go: true, heldMs: 600 },
      { go: true, heldMs: 600 },
      { go: false, waitMs: 500 - DELAYED_LEAD_MS },
    ]);
    await pacer.reserve('pn-1', 'f', 1000);
    expect(calls.at(-1)?.room).toBe(1); // given back once they went
  });

  it('with WHATSAPP_PACING=false asks Redis nothing: every job goes and every send runs at once', async () => {
    const { redis, calls } = fakeRedis(goAll);
    const pacer = new SenderPacer(core, { ...whatsapp, WHATSAPP_PACING: false }, redis);
    expect(await pacer.reserve('pn-1', 'job-a', 80)).toEqual({ go: true });
    expect(await pacer.sendCounted('pn-1', 80, async () => 'wamid.1')).toEqual({ sent: true, value: 'wamid.1' });
    await turn();
    expect(calls).toEqual([]);
  });

  it('runs the send once its second has room, then reports it landed under the same id', async () => {
    const { redis, calls } = fakeRedis(goAll);
    const pacer = new SenderPacer(core, whatsapp, redis);
    expect(await pacer.sendCounted('pn-1', 80, async () => 'wamid.1')).toEqual({ sent: true, value: 'wamid.1' });
    await reported(calls, (c) => landedCount(c) === 1);
    expect(calls.map((c) => [c.takes, c.landed])).toEqual([
      [[expect.any(String)], []],
      [[], [calls[0].takes[0]]],
    ]);
  });

  it('does not run the send while its second is full beyond maxWaitMs, and says how long until there is room', async () => {
    const { redis, calls } = fakeRedis((call) => call.takes.map(() => 400));
    const pacer = new SenderPacer(core, whatsapp, redis);
    let ran = false;
    expect(await pacer.sendCounted('pn-1', 80, async () => (ran = true), 100)).toEqual({ sent: false, waitMs: 400 });
    expect(ran).toBe(false);
    await turn();
    expect(calls.flatMap((c) => c.landed)).toEqual([]); // nothing was sent, so nothing is reported
  });

  it('waits within maxWaitMs for a second with room and asks again with the same id', async () => {
    let asked = 0;
    const { redis, calls } = fakeRedis((call) => call.takes.map(() => (asked++ === 0 ? 30 : 0)));
    const pacer = new SenderPacer(core, whatsapp, redis);
    const started = Date.now();
    expect(await pacer.sendCounted('pn-1', 80, async () => 'ok', 1000)).toEqual({ sent: true, value: 'ok' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(calls[1].takes).toEqual(calls[0].takes);
  });

  it('reports a send whose request threw as landed too (it no longer counts)', async () => {
    const { redis, calls } = fakeRedis(goAll);
    const pacer = new SenderPacer(core, whatsapp, redis);
    await expect(pacer.sendCounted('pn-1', 80, async () => Promise.reject(new Error('socket hang up')))).rejects.toThrow('socket hang up');
    await reported(calls, (c) => landedCount(c) === 1);
    expect(calls[1].landed).toEqual(calls[0].takes);
  });

  describe("a number's recent load", () => {
    let now: number;
    beforeEach(() => {
      now = 1_800_000_000_200; // early in a second
      jest.spyOn(Date, 'now').mockImplementation(() => now);
    });
    afterEach(() => jest.restoreAllMocks());

    /** A pacer that has sent once through pn-1 in the current second, the script counting `count` of 80 in it. */
    async function afterOneSend(count: number) {
      const fake = fakeRedis((call) => [...goAll(call), count, 80, ...call.reserves.map(() => 0)]);
      const pacer = new SenderPacer(core, whatsapp, fake.redis);
      await pacer.sendCounted('pn-1', 80, async () => 'ok');
      await turn();
      return { pacer, ...fake };
    }

    it('lets jobs of a number that used less than half its rate in the last second go without asking Redis', async () => {
      const { pacer, calls } = await afterOneSend(10);
      now += 1000;
      const before = calls.length;
      expect(await pacer.reserve('pn-1', 'job-a', 80)).toEqual({ go: true });
      expect(calls.length).toBe(before);
    });

    it('asks Redis when nothing is known of the second before (the first second of a number)', async () => {
      const { pacer, calls } = await afterOneSend(10);
      await pacer.reserve('pn-1', 'job-a', 80);
      expect(calls.at(-1)?.reserves).toEqual(['job-a']);
    });

    it('asks Redis once the number used half its rate or more', async () => {
      const { pacer, calls } = await afterOneSend(40);
      now += 1000;
      await pacer.reserve('pn-1', 'job-a', 80);
      expect(calls.at(-1)?.reserves).toEqual(['job-a']);
    });

    it('asks Redis while the number is slowed down after Meta said its throughput is used up', async () => {
      const { pacer, calls, slowDowns } = await afterOneSend(10);
      expect(await pacer.slowDown('pn-1')).toBe(0.25);
      expect(slowDowns).toEqual([['p:whatsapp-pace:{pn-1}', SLOW_DOWN_FACTOR, SLOW_DOWN_MS, SLOW_DOWN_SETTLE_MS]]);
      now += 1000;
      await pacer.reserve('pn-1', 'job-a', 80);
      expect(calls.at(-1)?.reserves).toEqual(['job-a']);
    });
  });

  describe('permits and reports (one script call per batch, not one per step of a message)', () => {
    it('sends with the permit its reservation got, asking Redis nothing more before the request', async () => {
      const { redis, calls } = fakeRedis(goWithPermits);
      const pacer = new SenderPacer(core, whatsapp, redis);
      const decision = await pacer.reserve('pn-1', 'job-a', 1000);
      expect(decision).toEqual({ go: true, permit: expect.objectContaining({ phoneNumberId: 'pn-1', id: 'r:job-a', settled: false }) });
      const permit = decision.go ? decision.permit : undefined;
      let callsAtSend = -1;
      expect(await pacer.sendCounted('pn-1', 1000, async () => (callsAtSend = calls.length), 0, permit)).toEqual({ sent: true, value: 1 });
      expect(callsAtSend).toBe(1); // the reservation's call only: no take
      expect(permit?.settled).toBe(true);
      await reported(calls, (c) => landedCount(c) === 1);
      expect(calls.map((c) => [c.reserves, c.takes, c.landed])).toEqual([
        [['job-a'], [], []],
        [[], [], ['r:job-a']],
      ]);
    });

    it("carries answered sends in the number's next call instead of a call of their own", async () => {
      const { redis, calls } = fakeRedis(goWithPermits);
      const pacer = new SenderPacer(core, whatsapp, redis);
      // 20 messages one after another, each reserved, then sent with its permit: one call per message
      // (its reservation, carrying the answer of the one before) and one for the last answer, where
      // reservation, count and report were a call each (60); a few more when a loaded host's timer ran first.
      for (let i = 0; i < 20; i++) {
        const d = await pacer.reserve('pn-1', `job-${i}`, 1000);
        await pacer.sendCounted('pn-1', 1000, async () => 'ok', 0, d.go ? d.permit : undefined);
      }
      await reported(calls, (c) => landedCount(c) === 20);
      expect(calls.flatMap((c) => c.takes)).toEqual([]);
      expect(calls.flatMap((c) => c.landed).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `r:job-${i}`).sort());
      expect(calls.length).toBeLessThanOrEqual(30);
      expect(calls.filter((c) => c.reserves.length > 0 && c.landed.length > 0).length).toBeGreaterThanOrEqual(10);
    });

    it('20 concurrent messages of a number cost two script calls: their reservations, and their answers', async () => {
      const { redis, calls } = fakeRedis(goWithPermits);
      const pacer = new SenderPacer(core, whatsapp, redis);
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const d = await pacer.reserve('pn-1', `job-${i}`, 1000);
          return pacer.sendCounted('pn-1', 1000, async () => 'ok', 0, d.go ? d.permit : undefined);
        }),
      );
      await reported(calls, (c) => landedCount(c) === 20);
      expect(calls.map((c) => [c.reserves.length, c.takes.length, c.landed.length])).toEqual([
        [20, 0, 0],
        [0, 0, 20],
      ]);
    });

    it('gives an unused permit back (released, once), and takes a send counted anew when its permit is stale', async () => {
      const { redis, calls } = fakeRedis(goWithPermits);
      const pacer = new SenderPacer(core, whatsapp, redis);
      const unused = await pacer.reserve('pn-1', 'job-a', 1000);
      pacer.release(unused.go ? unused.permit : undefined);
      pacer.release(unused.go ? unused.permit : undefined);
      await reported(calls, (c) => c.some((call) => call.released.length > 0));
      expect(calls.flatMap((c) => c.released)).toEqual(['r:job-a']);

      const stale = await pacer.reserve('pn-1', 'job-b', 1000);
      const permit = stale.go ? stale.permit : undefined;
      jest.spyOn(Date, 'now').mockReturnValue(Date.now() + PERMIT_FRESH_MS + 1);
      try {
        await pacer.sendCounted('pn-1', 1000, async () => 'ok', 0, permit);
      } finally {
        jest.restoreAllMocks();
      }
      await reported(calls, (c) => landedCount(c) === 1);
      expect(calls.flatMap((c) => c.released)).toEqual(['r:job-a', 'r:job-b']);
      expect(calls.flatMap((c) => c.takes)).toHaveLength(1);
    });
  });

  it('turns a failed Redis call into RedisUnavailableError for every ask of the turn', async () => {
    const { redis } = fakeRedis(() => Promise.reject(new Error('Connection is closed.')));
    const pacer = new SenderPacer(core, whatsapp, redis);
    const results = await Promise.allSettled([pacer.reserve('pn-1', 'job-a', 80), pacer.reserve('pn-2', 'job-b', 80)]);
    expect(results.map((r) => (r as PromiseRejectedResult).reason)).toEqual([expect.any(RedisUnavailableError), expect.any(RedisUnavailableError)]);
  });
});
