import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';
import { SerialFunctionRunner, YIELD_AFTER_MS } from './serial-function-runner.js';

const request: FunctionRunRequest = { code: 'return 1', payload: null, variables: {}, timeoutMs: 50, memoryBytes: 1 << 20 };
const outcome: FunctionRunOutcome = { ok: true, value: 1, events: [], logs: [], cpuMs: 0 };

/**
 * A runner whose runs take `ms` each on the test's clock (`clock.ms`, which only runs move: a loaded host
 * cannot stretch a burst) and that notes, at each start, whether the loop has had a turn since the test began.
 */
class BusyRunner implements FunctionRunner {
  loopTurned = false;
  readonly starts: boolean[] = [];
  readonly clock = { ms: 0 };
  constructor(private readonly ms: number) {}
  async run(): Promise<FunctionRunOutcome> {
    this.starts.push(this.loopTurned);
    this.clock.ms += this.ms;
    return outcome;
  }
}

/** A SerialFunctionRunner around `inner`, on the inner runner's clock. */
const serial = (inner: BusyRunner) => new SerialFunctionRunner(inner, () => inner.clock.ms);

describe('SerialFunctionRunner', () => {
  it('starts a run at once when the sandbox is idle, without waiting for a turn of the event loop', async () => {
    const inner = new BusyRunner(0);
    const runner = serial(inner);
    // Let a burst's clock grow old first: an earlier run, then a pause.
    await runner.run(request);
    inner.clock.ms += 3 * YIELD_AFTER_MS;
    await new Promise((r) => setTimeout(r, 3 * YIELD_AFTER_MS));
    setImmediate(() => (inner.loopTurned = true));
    await runner.run(request);
    expect(inner.starts).toEqual([false, false]);
  });

  it('runs queued functions back to back, and gives the loop a turn once a burst passes YIELD_AFTER_MS', async () => {
    const inner = new BusyRunner(2);
    const runner = serial(inner);
    setImmediate(() => (inner.loopTurned = true));
    const runs = Array.from({ length: 6 }, () => runner.run(request));
    expect(await Promise.all(runs)).toEqual(Array(6).fill(outcome));
    // Starts at 0, 2 and 4 ms go back to back; the one at 6 ms (past YIELD_AFTER_MS) waits for a turn first.
    expect(inner.starts).toEqual([false, false, false, true, true, true]);
  });

  it('goes on after a run that rejects', async () => {
    const failing: FunctionRunner = { run: () => Promise.reject(new Error('boom')) };
    const runner = new SerialFunctionRunner(failing);
    await expect(runner.run(request)).rejects.toThrow('boom');
    const next = serial(new BusyRunner(0));
    await expect(next.run(request)).resolves.toEqual(outcome);
    await expect(runner.run(request)).rejects.toThrow('boom'); // the queue is not stuck behind the failure
  });
});
