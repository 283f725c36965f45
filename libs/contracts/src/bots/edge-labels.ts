import type { BotEdge, BotNode } from './bot-definition.js';

/** An edge's label: `next` when it names none. */
export function edgeLabel(edge: BotEdge): string {
  return edge.on ?? 'next';
}

/**
 * The labels a node can leave by. goto and end leave by none (goto jumps to another journey's start; end ends),
 * a handoff's `next` is followed when an agent hands the conversation back.
 */
export function producibleLabels(node: BotNode): string[] {
  switch (node.kind) {
    case 'message':
    case 'set':
    case 'handoff':
      return ['next'];
    case 'question':
      return ['next', 'invalid'];
    case 'function':
    case 'http':
      return ['next', 'error'];
    case 'condition':
      // A draft in the builder may not have its branches yet (typed as JSON); the validator names that.
      return [...((node.branches as typeof node.branches | undefined) ?? []).map((branch) => branch.id), 'else'];
    case 'goto':
    case 'end':
      return [];
  }
}
