import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';

/**
 * The function-node sandbox on worker threads (piscina), each thread with its own QuickJS runner:
 * functions run beside the event loop and beside each other, so a long one holds no other turn's I/O.
 * It pays where the runtime has cores of its own; where it shares them (Postgres and Redis on the same
 * two cores in bench:bot), a thread waking for each run waits for the scheduler and the steps were
 * slower than on the loop (docs/architecture.md).
 *
 * A thread that dies (an engine abort the runner could not catch) is replaced by piscina; the run it
 * held answers as a sandbox failure, like any other run that could not finish.
 */
export class ThreadedFunctionRunner implements FunctionRunner {
  private closed = false;

  private constructor(private readonly pool: Piscina<FunctionRunRequest, FunctionRunOutcome>) {}

  /** `threads`: how many (0: one per core beyond the first, at least one, at most four). */
  static async create(threads = 0): Promise<ThreadedFunctionRunner> {
    const count = threads > 0 ? threads : defaultThreads();
    const pool = new Piscina<FunctionRunRequest, FunctionRunOutcome>({
      filename: threadEntry(),
      minThreads: count,
      maxThreads: count,
      // No idle thread is ever ended: each holds a compiled, warm QuickJS.
      idleTimeout: Number.POSITIVE_INFINITY,
    });
    const runner = new ThreadedFunctionRunner(pool);
    // Every thread loads its QuickJS now, so the first users' functions do not wait for it.
    await Promise.all(Array.from({ length: count }, () => runner.run(WARM_UP)));
    return runner;
  }

  get threads(): number {
    return this.pool.threads.length;
  }

  async run(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    try {
      // piscina would start new threads for it.
      if (this.closed) throw new Error('the sandbox is closed');
      return await this.pool.run(request);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, failure: 'threw', message: `the sandbox thread stopped: ${message}`.slice(0, 200), events: [], logs: [], cpuMs: 0 };
    }
  }

  /** Ends the threads once the runs in flight are done. */
  close(): Promise<void> {
    this.closed = true;
    return this.pool.close();
  }
}

const WARM_UP: FunctionRunRequest = { code: 'return 1;', payload: null, variables: {}, timeoutMs: 1000, memoryBytes: 8 * 1024 * 1024 };

function defaultThreads(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}

/**
 * The compiled thread entry beside this module. Under Jest this module runs from its TypeScript source,
 * which a worker thread cannot load, so the thread runs the build's copy (the test command builds first).
 */
function threadEntry(): string {
  const beside = fileURLToPath(new URL('./sandbox-thread.js', import.meta.url));
  if (existsSync(beside)) return beside;
  const built = beside.replace(/\/libs\/bot-sandbox\/src\//, '/dist/libs/bot-sandbox/src/');
  if (existsSync(built)) return built;
  throw new Error(`the sandbox thread's entry is missing (${built}): run npm run build`);
}
