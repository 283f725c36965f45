import type { BotDefinition, BotJourney, BotNode } from '@platform/contracts';
import { edgeLabel } from '@platform/contracts';

/** A journey with its nodes by id and its edges by `from` and label. */
export interface IndexedJourney {
  journey: BotJourney;
  nodes: Map<string, BotNode>;
  /** `${from}\n${label}` → to (the first edge when a validated definition cannot have two). */
  edges: Map<string, string>;
}

/** Lookups over a definition, built once per definition (the engine caches them by object identity). */
export interface DefinitionIndex {
  journeys: Map<string, IndexedJourney>;
}

const cache = new WeakMap<BotDefinition, DefinitionIndex>();

export function indexDefinition(definition: BotDefinition): DefinitionIndex {
  const cached = cache.get(definition);
  if (cached) return cached;
  const journeys = new Map<string, IndexedJourney>();
  for (const journey of definition.journeys) {
    if (journeys.has(journey.slug)) continue;
    const nodes = new Map<string, BotNode>();
    for (const node of journey.nodes) if (!nodes.has(node.id)) nodes.set(node.id, node);
    const edges = new Map<string, string>();
    for (const edge of journey.edges) {
      const key = edgeKey(edge.from, edgeLabel(edge));
      if (!edges.has(key)) edges.set(key, edge.to);
    }
    journeys.set(journey.slug, { journey, nodes, edges });
  }
  const index = { journeys };
  cache.set(definition, index);
  return index;
}

export function edgeKey(from: string, label: string): string {
  return `${from}\n${label}`;
}

/** The node an edge labelled `label` leads to from `from`, or undefined when there is none (the journey ends). */
export function follow(journey: IndexedJourney, from: string, label: string): BotNode | undefined {
  const to = journey.edges.get(edgeKey(from, label));
  return to === undefined ? undefined : journey.nodes.get(to);
}
