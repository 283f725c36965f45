import type { BotDefinition, BotEdge, BotJourney, BotNode, BotVariable, FunctionRunOutcome, FunctionRunRequest } from '@platform/contracts';
import type { HttpOutcome, HttpRequest, TurnPorts } from '../engine/turn-ports.js';

/** Small definitions for the engine's specs: a journey from nodes and `[from, to, on?]` edges. */
export function journey(slug: string, nodes: BotNode[], edges: Array<[string, string, string?]> = [], start = nodes[0]?.id ?? 'start'): BotJourney {
  return { slug, start, nodes, edges: edges.map(([from, to, on]): BotEdge => (on ? { from, to, on } : { from, to })) };
}

/** Edges `next` along the given ids: chain('a', 'b', 'c') → a→b, b→c. */
export function chain(...ids: string[]): Array<[string, string]> {
  return ids.slice(1).map((id, index) => [ids[index], id]);
}

export function bot(journeys: BotJourney | BotJourney[], variables: BotVariable[] = [], extra: Partial<BotDefinition> = {}): BotDefinition {
  const list = Array.isArray(journeys) ? journeys : [journeys];
  return { schemaVersion: 1, startJourney: list[0].slug, variables, journeys: list, ...extra };
}

export interface FakePorts {
  ports: TurnPorts;
  functionCalls: FunctionRunRequest[];
  httpCalls: HttpRequest[];
  secretReads: () => number;
}

/** Ports whose answers the spec decides (pure unit tests: no sandbox, no network). */
export function fakePorts(
  options: {
    functions?: (request: FunctionRunRequest) => FunctionRunOutcome | Promise<FunctionRunOutcome>;
    http?: (request: HttpRequest) => HttpOutcome | Promise<HttpOutcome>;
    secrets?: Record<string, string>;
  } = {},
): FakePorts {
  const functionCalls: FunctionRunRequest[] = [];
  const httpCalls: HttpRequest[] = [];
  let reads = 0;
  return {
    functionCalls,
    httpCalls,
    secretReads: () => reads,
    ports: {
      functions: {
        run: async (request) => {
          functionCalls.push(request);
          if (!options.functions) throw new Error('no function runner in this spec');
          return options.functions(request);
        },
      },
      http: {
        call: async (request) => {
          httpCalls.push(request);
          if (!options.http) throw new Error('no http caller in this spec');
          return options.http(request);
        },
      },
      secrets: async () => {
        reads++;
        return options.secrets ?? {};
      },
    },
  };
}

/** A successful function run returning `value`. */
export function returned(value: unknown, extra: Partial<Extract<FunctionRunOutcome, { ok: true }>> = {}): FunctionRunOutcome {
  return { ok: true, value, events: [], logs: [], cpuMs: 1, ...extra };
}
