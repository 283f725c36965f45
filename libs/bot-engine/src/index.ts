// TEMP engine stub (branch hb-botapi only): the engine's declared API with shape checks only, so the
// gateway and CLI compile and their tests run until hb-engine lands. Dropped at merge.
import type { BotDefinition, BotRunState, BotTurnInput, BotTurnResult, DefinitionError, FunctionRunner } from '@platform/contracts';

export const botDefinitionJsonSchema: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'bot-definition.schema.json',
  title: 'Bot definition',
  type: 'object',
  required: ['schemaVersion', 'startJourney', 'variables', 'journeys'],
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function validateBotDefinition(doc: unknown): { ok: true; definition: BotDefinition } | { ok: false; errors: DefinitionError[] } {
  if (!isObject(doc)) return { ok: false, errors: [{ message: 'the definition must be a JSON object' }] };
  const errors: DefinitionError[] = [];
  if (doc.schemaVersion !== 1) errors.push({ field: 'schemaVersion', message: 'must be 1' });
  if (!Array.isArray(doc.variables)) errors.push({ field: 'variables', message: 'must be an array' });
  if (!Array.isArray(doc.journeys) || doc.journeys.length === 0) {
    errors.push({ field: 'journeys', message: 'must be a non-empty array' });
    return { ok: false, errors };
  }
  const slugs = new Set<string>();
  for (const [i, j] of (doc.journeys as unknown[]).entries()) {
    if (!isObject(j) || typeof j.slug !== 'string') {
      errors.push({ field: `journeys[${i}].slug`, message: 'must be a string' });
      continue;
    }
    slugs.add(j.slug);
    const nodes = Array.isArray(j.nodes) ? (j.nodes as unknown[]) : [];
    const ids = new Set(nodes.filter(isObject).map((n) => n.id));
    if (!ids.has(j.start)) errors.push({ journey: j.slug, field: 'start', message: `names no node of the journey` });
    for (const n of nodes) {
      if (!isObject(n)) continue;
      if (n.kind === 'message' && typeof n.text !== 'string' && n.image === undefined && n.cards === undefined) {
        errors.push({ journey: j.slug, node: String(n.id), field: 'text', message: 'a message node needs text, an image or cards' });
      }
    }
    for (const e of Array.isArray(j.edges) ? (j.edges as unknown[]) : []) {
      if (isObject(e) && !ids.has(e.to)) errors.push({ journey: j.slug, node: String(e.from), field: 'edges', message: `edge to unknown node ${String(e.to)}` });
    }
  }
  if (typeof doc.startJourney !== 'string' || !slugs.has(doc.startJourney)) errors.push({ field: 'startJourney', message: 'must name a journey' });
  return errors.length ? { ok: false, errors } : { ok: true, definition: doc as unknown as BotDefinition };
}

export function journeyForPayload(definition: BotDefinition, payload: string | undefined): string | undefined {
  const slug = payload?.startsWith('journey:') ? payload.slice('journey:'.length) : undefined;
  return slug && definition.journeys.some((j) => j.slug === slug) ? slug : undefined;
}
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
