/** Per-call limits of the function-node sandbox that do not come from the request (see docs/architecture.md). */
export const SANDBOX_LIMITS = {
  /** app.sendEvent calls per run; the 11th throws inside the sandbox. */
  maxEvents: 10,
  /** app.log lines per run; later lines are dropped. */
  maxLogLines: 20,
  /** Characters per app.log line; longer lines are cut. */
  maxLogLineLength: 1000,
  /** The result's JSON (UTF-8 bytes); a larger result is refused before it leaves the sandbox. */
  maxResultBytes: 256 * 1024,
  /** Characters of a failure message handed to the engine (the trace). */
  maxMessageLength: 500,
  /** The wall-clock backstop: max(this × the CPU limit, minWallMs), so a loaded host cannot stall a run for ever. */
  wallFactor: 10,
  minWallMs: 2000,
} as const;

export interface QuickJsRunnerOptions {
  /**
   * QuickJS's stack limit. It measures the WebAssembly shadow stack, while the interpreter's frames also
   * use Node's native stack (about 984 KiB): 64 KiB (about 370 frames of a plain recursive function) keeps
   * JavaScript recursion well inside Node's stack (256 KiB did not), and bounds the cost of code that keeps
   * overflowing it (each overflow error walks the whole stack).
   */
  stackBytes?: number;
  /** The WebAssembly memory's maximum: the most the sandbox can ever take from the process. */
  heapCapBytes?: number;
  /** After a run that grew the WebAssembly memory beyond this, the module is reloaded to give the memory back. */
  reloadAboveBytes?: number;
}

export const DEFAULT_RUNNER_OPTIONS: Required<QuickJsRunnerOptions> = {
  stackBytes: 64 * 1024,
  heapCapBytes: 256 * 1024 * 1024,
  reloadAboveBytes: 96 * 1024 * 1024,
};
