// Automatic layout of a journey with elkjs (layered, top to bottom), loaded with the builder only.
import type { Journey } from './definition.js';
import type { Point } from './graph.js';

// elkjs is most of the builder's weight: a chunk of its own, fetched beside the builder's.
let elk: Promise<{ layout: (graph: ElkGraph) => Promise<ElkGraph> }> | undefined;
interface ElkGraph {
  id: string;
  layoutOptions?: Record<string, string>;
  children?: Array<{ id: string; width?: number; height?: number; x?: number; y?: number }>;
  edges?: Array<{ id: string; sources: string[]; targets: string[] }>;
}
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 90;

export async function layoutJourney(journey: Journey): Promise<Record<string, Point>> {
  const ids = new Set(journey.nodes.map((n) => n.id));
  elk ??= import('elkjs/lib/elk.bundled.js').then((m) => new m.default());
  const graph = await (
    await elk
  ).layout({
    id: 'root',
    layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'DOWN', 'elk.spacing.nodeNode': '40', 'elk.layered.spacing.nodeNodeBetweenLayers': '60' },
    children: journey.nodes.map((n) => ({ id: n.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: journey.edges.filter((e) => ids.has(e.from) && ids.has(e.to)).map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
  });
  return Object.fromEntries((graph.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
}
