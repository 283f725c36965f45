import type { BotDefinition, BotRunState, BotTurnInput, FunctionRunner } from '@platform/contracts';

/** One outside call of an http node, already rendered (secrets included: the caller must not log it). */
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export type HttpOutcome = { ok: true; status: number; body: unknown } | { ok: false; error: string };

/** Makes http nodes' calls (the runtime's caller applies the public-address rule and the timeout). */
export interface HttpCaller {
  call(request: HttpRequest): Promise<HttpOutcome>;
}

/** What a turn may reach outside itself. `secrets` is only called when an http node runs. */
export interface TurnPorts {
  functions: FunctionRunner;
  http: HttpCaller;
  secrets(): Promise<Record<string, string>>;
}

/**
 * One turn of a conversation's bot. `definition` is the version to run: the state's version while a journey
 * runs (waiting or in handoff), else the published one; `version` is its number, put into a state that starts.
 */
export interface TurnRequest {
  definition: BotDefinition;
  version: number;
  state: BotRunState | null;
  input: BotTurnInput;
  ports: TurnPorts;
  /**
   * The web session's payload when no journey runs (`state` null: the last one ended and nothing of it is
   * kept): what a journey a message starts receives, as one the session start began received it.
   */
  sessionPayload?: string | null;
  /** Node runs allowed in this turn (default 200). */
  maxSteps?: number;
}
