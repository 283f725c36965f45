import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';

/** Back-to-back runs for at most this long before the event loop gets a turn. */
export const YIELD_AFTER_MS = 5;

/**
 * The sandbox on the event loop, one function at a time (BOT_SANDBOX_THREADS=0, the default). A QuickJS
 * run is synchronous CPU work (up to its CPU limit, 1 s at most), so running several "at once" only
 * stacks them. A run starts at once when the sandbox was idle: the loop has had its turns since the last
 * run, so waiting for another turn would only make the step wait behind every other turn's I/O. Queued runs go back to back while they are short (a warm run takes well under a
 * millisecond), and after YIELD_AFTER_MS of them the loop gets a turn (lock renewals, /health, the other
 * turns' I/O).
 */
export class SerialFunctionRunner implements FunctionRunner {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private burstSince = 0;

  /** `now`: milliseconds on a monotonic clock (the spec passes its own, so a loaded host does not change a burst's length). */
  constructor(
    private readonly runner: FunctionRunner,
    private readonly now: () => number = () => performance.now(),
  ) {}

  run(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    // No run waiting or running: this one starts a burst of its own, without waiting for a loop turn.
    if (this.queued++ === 0) this.burstSince = this.now();
    const run = this.tail.then(async () => {
      if (this.now() - this.burstSince > YIELD_AFTER_MS) {
        await nextTurn();
        this.burstSince = this.now();
      }
      return this.runner.run(request);
    });
    const settled = run.finally(() => this.queued--);
    this.tail = settled.catch(() => undefined);
    return settled;
  }
}
