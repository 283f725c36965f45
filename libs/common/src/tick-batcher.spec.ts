import { TickBatcher } from './tick-batcher.js';

describe('TickBatcher', () => {
  it('runs once per event-loop turn with every item of that turn, answering each caller its own result', async () => {
    const calls: number[][] = [];
    const batcher = new TickBatcher<number, number>(async (items) => (calls.push(items), items.map((i) => i * 10)));
    expect(await Promise.all([1, 2, 3].map((i) => batcher.submit(i)))).toEqual([10, 20, 30]);
    expect(await batcher.submit(4)).toBe(40);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it('splits a turn into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const batcher = new TickBatcher<number, number>(async (items) => (sizes.push(items.length), items), { maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((i) => batcher.submit(i)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('rejects every caller of a failed batch, and the next batch runs anew', async () => {
    let fail = true;
    const batcher = new TickBatcher<number, number>(async (items) => {
      if (fail) throw new Error('database down');
      return items;
    });
    const results = await Promise.allSettled([1, 2].map((i) => batcher.submit(i)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batcher.submit(3)).toBe(3);
  });

  it('flushes through the given scheduler, so that batchers sharing one run in the same flush', async () => {
    const scheduled: Array<() => void> = [];
    const calls: string[] = [];
    const schedule = (flush: () => void) => void scheduled.push(flush);
    const a = new TickBatcher<number, number>(async (items) => (calls.push(`a${items}`), items), { schedule });
    const b = new TickBatcher<number, number>(async (items) => (calls.push(`b${items}`), items), { schedule });
    const answers = Promise.all([a.submit(1), b.submit(2), a.submit(3)]);
    expect(scheduled).toHaveLength(2);
    expect(calls).toEqual([]);
    scheduled.forEach((flush) => flush());
    expect(calls).toEqual(['a1,3', 'b2']);
    expect(await answers).toEqual([1, 2, 3]);
  });

  it("sends a batch at once when it reaches flushAt, and the rest of the turn in the turn's flush", async () => {
    const scheduled: Array<() => void> = [];
    const calls: number[][] = [];
    const batcher = new TickBatcher<number, number>(async (items) => (calls.push(items), items), { flushAt: 3, schedule: (flush) => void scheduled.push(flush) });
    const answers = Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => batcher.submit(i)));
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(scheduled).toHaveLength(1);
    scheduled[0]();
    expect(calls).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(await answers).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('runs a batch that reaches flushAt through runEarly, which may wrap it (a corked write)', async () => {
    const events: string[] = [];
    const batcher = new TickBatcher<number, number>(async (items) => (events.push(`run ${items.join(',')}`), items), {
      flushAt: 2,
      schedule: () => undefined,
      runEarly: (flush) => (events.push('cork'), flush(), events.push('uncork')),
    });
    const answers = Promise.all([1, 2, 3].map((i) => batcher.submit(i)));
    expect(events).toEqual(['cork', 'run 1,2', 'uncork']);
    await expect(Promise.race([answers, Promise.resolve('3 waits for the turn')])).resolves.toBe('3 waits for the turn');
  });

  it('caps flushAt at maxBatch', async () => {
    const sizes: number[] = [];
    const batcher = new TickBatcher<number, number>(async (items) => (sizes.push(items.length), items), { maxBatch: 2, flushAt: 5, schedule: () => undefined });
    const answers = Promise.all([1, 2, 3, 4].map((i) => batcher.submit(i)));
    expect(sizes).toEqual([2, 2]);
    expect(await answers).toEqual([1, 2, 3, 4]);
  });
});
