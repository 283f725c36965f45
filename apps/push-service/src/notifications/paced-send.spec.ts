import { MAX_IN_JOB_WAIT_MS, PaceClock, sendPaced } from './paced-send.js';
import type { PaceGrant } from '../fcm/fcm-pacer.js';

/**
 * A project's budget on a fake clock: `perSecond` messages a second, nothing before `holdUntil`;
 * the clock moves only when the batch sleeps.
 */
function budget(perSecond: number, holdUntil = 0) {
  let now = 10_000;
  let sec = -1;
  let used = 0;
  const clock: PaceClock = { sleep: async (ms) => void (now += ms) };
  const take = async (want: number): Promise<PaceGrant> => {
    if (now < holdUntil) return { granted: 0, waitMs: holdUntil - now };
    const s = Math.floor(now / 1000);
    if (s !== sec) [sec, used] = [s, 0];
    const granted = Math.min(want, perSecond - used);
    used += granted;
    return { granted, waitMs: granted < want ? (s + 1) * 1000 - now : 0 };
  };
  return { clock, take, now: () => now };
}

describe('sendPaced', () => {
  it("sends what each second's budget allows at once and waits in the job for the next second", async () => {
    const b = budget(400);
    const sent: Array<[number, number, number]> = [];
    const waits: number[] = [];
    const r = await sendPaced({ count: 1000, take: b.take, send: (from, to) => sent.push([from, to, b.now()]), stopped: () => false, onWait: (ms) => waits.push(ms), clock: b.clock });
    expect(r).toEqual({ handed: 1000 });
    expect(sent).toEqual([
      [0, 400, 10_000],
      [400, 800, 11_000],
      [800, 1000, 12_000],
    ]);
    expect(waits).toEqual([1000, 1000]);
  });

  it('asks the pacer once for a batch that fits in the budget', async () => {
    const b = budget(10_000);
    let asks = 0;
    const sent: Array<[number, number]> = [];
    const r = await sendPaced({ count: 1000, take: (w) => (asks++, b.take(w)), send: (from, to) => sent.push([from, to]), stopped: () => false, clock: b.clock });
    expect(r).toEqual({ handed: 1000 });
    expect(sent).toEqual([[0, 1000]]);
    expect(asks).toBe(1);
  });

  it('stops with the wait when the project is held longer than a batch waits in its job (the job is delayed for the rest)', async () => {
    const b = budget(100, 10_000 + 30_000);
    const sent: Array<[number, number]> = [];
    const r = await sendPaced({ count: 500, take: b.take, send: (from, to) => sent.push([from, to]), stopped: () => false, clock: b.clock });
    expect(r).toEqual({ handed: 0, delayMs: 30_000 });
    expect(sent).toEqual([]);
    expect(b.now()).toBe(10_000); // it did not sleep
    expect(30_000).toBeGreaterThan(MAX_IN_JOB_WAIT_MS);
  });

  it('waits in the job for a short hold, then goes on', async () => {
    const b = budget(1000, 10_000 + 1500);
    const sent: Array<[number, number, number]> = [];
    const r = await sendPaced({ count: 500, take: b.take, send: (from, to) => sent.push([from, to, b.now()]), stopped: () => false, clock: b.clock });
    expect(r).toEqual({ handed: 500 });
    expect(sent).toEqual([[0, 500, 11_500]]);
  });

  it('hands the rest over at once, without budget, once the notification stopped', async () => {
    const b = budget(100);
    let stop = false;
    const sent: Array<[number, number]> = [];
    const take = async (w: number) => {
      const g = await b.take(w);
      stop = true;
      return g;
    };
    const r = await sendPaced({ count: 300, take, send: (from, to) => sent.push([from, to]), stopped: () => stop, clock: b.clock });
    expect(r).toEqual({ handed: 300 });
    expect(sent).toEqual([
      [0, 100],
      [100, 300],
    ]);
  });
});
