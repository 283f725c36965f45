import { StartupError } from './startup-error.js';

/**
 * Runs an app's bootstrap; a StartupError (e.g. a configuration error) stops the process with its message and no stack.
 * With `shutdownTimeoutMs` (long-running apps with Nest's shutdown hooks), a SIGINT/SIGTERM whose
 * close gets stuck on a dead dependency (e.g. Redis gone first) still ends the process after that time.
 */
export function runMain(bootstrap: () => Promise<unknown>, options: { shutdownTimeoutMs?: number } = {}): void {
  bootstrap().then(
    () => {
      if (options.shutdownTimeoutMs !== undefined) exitIfShutdownStalls(options.shutdownTimeoutMs);
    },
    (err: unknown) => {
      const startupError = findStartupError(err);
      if (startupError) {
        process.stderr.write(`${startupError.message}\n`);
      } else {
        process.stderr.write(`Fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      }
      process.exit(1);
    },
  );
}

function exitIfShutdownStalls(timeoutMs: number): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        process.stderr.write(`shutdown did not finish within ${timeoutMs} ms after ${signal}; exiting\n`);
        process.exit(1);
      }, timeoutMs).unref();
    });
  }
}

function findStartupError(err: unknown): StartupError | undefined {
  for (let e = err; e; e = (e as { cause?: unknown }).cause) if (e instanceof StartupError) return e;
  return undefined;
}
