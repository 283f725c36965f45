import type { BotAppEvent } from './bot-run.js';

/** A function node's call into the sandbox. */
export interface FunctionRunRequest {
  code: string;
  /** The session payload as a JSON string (the spec: always a string), null when there is none. */
  payload: string | null;
  /** A copy of the conversation's variables (JSON values). */
  variables: Record<string, unknown>;
  /** CPU-time limit. */
  timeoutMs: number;
  memoryBytes: number;
}

export type FunctionRunFailure = 'timeout' | 'memory' | 'threw' | 'result_too_large' | 'unsettled' | 'invalid_result';

export type FunctionRunOutcome =
  | { ok: true; value: unknown; events: BotAppEvent[]; logs: string[]; cpuMs: number }
  | { ok: false; failure: FunctionRunFailure; message: string; events: BotAppEvent[]; logs: string[]; cpuMs: number };

/** The sandbox as the engine sees it (`@platform/bot-sandbox` implements it with QuickJS). */
export interface FunctionRunner {
  run(request: FunctionRunRequest): Promise<FunctionRunOutcome>;
}
