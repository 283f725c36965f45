import { ConfigError } from './platform-config.js';

/** Runs an app's bootstrap; a configuration error stops the process with its message and no stack. */
export function runMain(bootstrap: () => Promise<unknown>): void {
  bootstrap().catch((err: unknown) => {
    const configError = findConfigError(err);
    if (configError) {
      process.stderr.write(`${configError.message}\n`);
    } else {
      process.stderr.write(`Fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    process.exit(1);
  });
}

function findConfigError(err: unknown): ConfigError | undefined {
  for (let e = err; e; e = (e as { cause?: unknown }).cause) if (e instanceof ConfigError) return e;
  return undefined;
}
