import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';

/** Back-to-back runs for at most this long before the event loop gets a turn. */
const YIELD_AFTER_MS = 5;

/**
 * The sandbox as the runtime's turns share it: one function at a time per process. A QuickJS run is
 * synchronous CPU work (up to its CPU limit, 1 s at most) on the event loop, so running several
 * "at once" only stacks them, and the runner reloads its WebAssembly instance between runs when one
 * grew it. Queued here, runs go back to back while they are short (a warm run takes well under a
 * millisecond; a loop turn before each one made every queued step wait for all the other turns' I/O),
 * and after YIELD_AFTER_MS of them the loop gets a turn (lock renewals, /health, the other turns' I/O).
 * More throughput comes from more replicas.
 */
export class SerialFunctionRunner implements FunctionRunner {
  private tail: Promise<unknown> = Promise.resolve();
  private busySince = 0;

  constructor(private readonly runner: FunctionRunner) {}

  run(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    const run = this.tail.then(async () => {
      if (performance.now() - this.busySince > YIELD_AFTER_MS) {
        await nextTurn();
        this.busySince = performance.now();
      }
      return this.runner.run(request);
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
}
