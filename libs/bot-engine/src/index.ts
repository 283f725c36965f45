// TEMP stub of the engine's declared API (PLAN.md), until hb-engine is merged; dropped at merge.
import type { BotDefinition, BotRunState, BotTurnInput, BotTurnResult, DefinitionError, FunctionRunner } from '@platform/contracts';

export function validateBotDefinition(doc: unknown): { ok: true; definition: BotDefinition } | { ok: false; errors: DefinitionError[] } {
  return { ok: true, definition: doc as BotDefinition };
}
export const botDefinitionJsonSchema: Record<string, unknown> = {};
export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}
export type HttpOutcome = { ok: true; status: number; body: unknown } | { ok: false; error: string };
export interface HttpCaller {
  call(request: HttpRequest): Promise<HttpOutcome>;
}
export interface TurnPorts {
  functions: FunctionRunner;
  http: HttpCaller;
  secrets(): Promise<Record<string, string>>;
}
export interface TurnRequest {
  definition: BotDefinition;
  version: number;
  state: BotRunState | null;
  input: BotTurnInput;
  ports: TurnPorts;
  maxSteps?: number;
}
export function runTurn(_request: TurnRequest): Promise<BotTurnResult> {
  return Promise.reject(new Error('TEMP stub: the engine is not merged yet'));
}
export function journeyForPayload(_definition: BotDefinition, _payload: string | undefined): string | undefined {
  return undefined;
}
