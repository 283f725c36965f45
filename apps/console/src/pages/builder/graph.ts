// The mapping between a journey of the definition and the flow editor's graph, and the edits the builder
// makes to a journey. Pure: the definition is the one state; the graph is drawn from it each time.
import { type BotNode, type DefinitionError, type Edge, type Journey, type NodeKind, exitLabels, newNode } from './definition.js';

export interface Point {
  x: number;
  y: number;
}
export interface FlowNode {
  id: string;
  type: 'bot';
  position: Point;
  data: { node: BotNode; exits: string[]; start: boolean; errors: string[]; warnings: string[] };
}
export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle: string;
  label: string;
}

export const edgeId = (from: string, label: string) => `${from}:${label}`;
export const labelOf = (edge: Edge) => edge.on ?? 'next';

/** The errors (or warnings) that name a node of this journey, by node id ("field: message"). */
export function nodeErrors(errors: DefinitionError[], journey: string): Map<string, string[]> {
  const byNode = new Map<string, string[]>();
  for (const e of errors) {
    if (e.journey !== journey || !e.node) continue;
    const list = byNode.get(e.node) ?? byNode.set(e.node, []).get(e.node)!;
    list.push(e.field ? `${e.field}: ${e.message}` : e.message);
  }
  return byNode;
}

/** The journey as nodes and edges for the flow editor; a node without a position goes below the others. */
export function toFlow(journey: Journey, positions: Record<string, Point>, errors: DefinitionError[], warnings: DefinitionError[] = []): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const byNode = nodeErrors(errors, journey.slug);
  const warned = nodeErrors(warnings, journey.slug);
  let lowest = Math.max(0, ...Object.values(positions).map((p) => p.y));
  const nodes = journey.nodes.map((node): FlowNode => {
    const position = positions[node.id] ?? { x: 0, y: (lowest += 120) };
    return { id: node.id, type: 'bot', position, data: { node, exits: exitLabels(node), start: journey.start === node.id, errors: byNode.get(node.id) ?? [], warnings: warned.get(node.id) ?? [] } };
  });
  const edges = journey.edges.map((e): FlowEdge => ({ id: edgeId(e.from, labelOf(e)), source: e.from, target: e.to, sourceHandle: labelOf(e), label: labelOf(e) }));
  return { nodes, edges };
}

/** Connects `from`'s exit `label` to `to`; a node leaves by each label once, so an earlier edge of that label is replaced. */
export function connect(journey: Journey, from: string, label: string, to: string): Journey {
  const edges = journey.edges.filter((e) => !(e.from === from && labelOf(e) === label));
  edges.push(label === 'next' ? { from, to } : { from, to, on: label });
  return { ...journey, edges };
}

export function disconnect(journey: Journey, from: string, label: string): Journey {
  return { ...journey, edges: journey.edges.filter((e) => !(e.from === from && labelOf(e) === label)) };
}

/** Where `from` goes by `label`, if anywhere. */
export function targetOf(journey: Journey, from: string, label: string): string | undefined {
  return journey.edges.find((e) => e.from === from && labelOf(e) === label)?.to;
}

/** An id not yet used in the journey: `<kind>-<n>`. */
export function freshId(journey: Journey, kind: string): string {
  const used = new Set(journey.nodes.map((n) => n.id));
  for (let n = 1; ; n++) if (!used.has(`${kind}-${n}`)) return `${kind}-${n}`;
}

/**
 * Adds a node of `kind`, named `id` (a fresh one by default); the first node of an empty journey becomes
 * its start. An `id` the journey already has leaves it as it is: no two nodes share an id.
 */
export function addNode(journey: Journey, kind: NodeKind, firstJourney: string, id = freshId(journey, kind)): { journey: Journey; id: string } {
  if (journey.nodes.some((n) => n.id === id)) return { journey, id };
  const nodes = [...journey.nodes, newNode(kind, id, firstJourney)];
  return { journey: { ...journey, nodes, start: journey.nodes.length === 0 ? id : journey.start }, id };
}

/** Removes a node and every edge to or from it; removing the start makes the next node the start. */
export function removeNode(journey: Journey, id: string): Journey {
  const nodes = journey.nodes.filter((n) => n.id !== id);
  return { ...journey, nodes, edges: journey.edges.filter((e) => e.from !== id && e.to !== id), start: journey.start === id ? (nodes[0]?.id ?? '') : journey.start };
}

/** Replaces a node; a changed id is followed by its edges and the journey's start. Exits the node no longer has lose their edges. */
export function updateNode(journey: Journey, id: string, node: BotNode): Journey {
  const rename = (x: string) => (x === id ? node.id : x);
  const exits = new Set(exitLabels(node));
  return {
    ...journey,
    start: rename(journey.start),
    nodes: journey.nodes.map((n) => (n.id === id ? node : n)),
    edges: journey.edges.map((e) => ({ ...e, from: rename(e.from), to: rename(e.to) })).filter((e) => e.from !== node.id || exits.has(labelOf(e))),
  };
}
