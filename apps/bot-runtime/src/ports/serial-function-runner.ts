import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';

/**
 * The sandbox as the runtime's turns share it: one function at a time per process. A QuickJS run is
 * synchronous CPU work (up to its CPU limit, 1 s at most) on the event loop, so running several
 * "at once" only stacks them; queued here, each waits its turn and the loop gets a turn between two
 * runs (lock renewals, /health, the other turns' I/O). More throughput comes from more replicas.
 */
export class SerialFunctionRunner implements FunctionRunner {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly runner: FunctionRunner) {}

  run(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    const run = this.tail.then(async () => {
      await nextTurn();
      return this.runner.run(request);
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
}
