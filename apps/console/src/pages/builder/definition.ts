// The bot definition as the builder edits it. The shapes mirror libs/contracts/src/bots/bot-definition.ts
// (the console reaches only the Node-free part of the contracts, so the few it needs are restated here);
// the server's validator stays the judge of what is valid.
import { type BotDefinitionNode, producibleLabels } from '@platform/contracts/views';

export type Json = unknown;
export type VariableType = 'string' | 'number' | 'boolean' | 'object' | 'array';
export interface Variable {
  name: string;
  type: VariableType;
  default?: Json;
}
export interface Edge {
  from: string;
  to: string;
  on?: string;
}
export interface Button {
  title: string;
  payload?: string;
}
/** One node: `kind` and `id` always, the rest by kind (message, question, …). */
export interface BotNode {
  id: string;
  kind: NodeKind;
  label?: string;
  [field: string]: Json;
}
export interface Journey {
  slug: string;
  name?: string;
  start: string;
  nodes: BotNode[];
  edges: Edge[];
}
export interface Definition {
  schemaVersion: 1;
  startJourney: string;
  variables: Variable[];
  journeys: Journey[];
  settings?: Record<string, Json>;
}
/** One error (refuses a save or publish) or warning (never does) of the validator, named by where it is. */
export interface DefinitionError {
  journey?: string | null;
  node?: string | null;
  field?: string | null;
  message: string;
}

export const NODE_KINDS = ['message', 'question', 'condition', 'function', 'http', 'set', 'goto', 'handoff', 'end'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

export const KIND_LABELS: Record<NodeKind, string> = {
  message: 'Message',
  question: 'Question',
  condition: 'Condition',
  function: 'Function',
  http: 'HTTP call',
  set: 'Set variables',
  goto: 'Go to journey',
  handoff: 'Hand off to a person',
  end: 'End',
};

/**
 * The labels a node can leave by: the engine's own rule (libs/contracts bots/edge-labels.ts, which the
 * validator checks edges with), given the builder's looser node; goto and end leave by none.
 */
export function exitLabels(node: BotNode): string[] {
  return producibleLabels(node as unknown as BotDefinitionNode);
}

/** A new node of a kind with the fields it needs, filled so that it is valid where it can be. */
export function newNode(kind: NodeKind, id: string, firstJourney: string): BotNode {
  switch (kind) {
    case 'message':
      return { id, kind, text: 'Hello!' };
    case 'question':
      return { id, kind, text: 'What is your name?', answer: { type: 'text' }, variable: '' };
    case 'condition':
      return { id, kind, branches: [{ id: 'yes', when: 'true' }] };
    case 'function':
      return { id, kind, code: 'return 1;' };
    case 'http':
      return { id, kind, method: 'GET', url: 'https://example.com/' };
    case 'set':
      return { id, kind, assignments: [] };
    case 'goto':
      return { id, kind, journey: firstJourney };
    case 'handoff':
      return { id, kind, text: 'A person will answer you shortly.' };
    case 'end':
      return { id, kind, text: 'Goodbye!' };
  }
}

/** A small bot to start from when the bot has no draft yet. */
export function starterDefinition(): Definition {
  return {
    schemaVersion: 1,
    startJourney: 'main',
    variables: [],
    journeys: [
      {
        slug: 'main',
        name: 'Main',
        start: 'hello',
        nodes: [
          { id: 'hello', kind: 'message', text: 'Hello!' },
          { id: 'bye', kind: 'end', text: 'Goodbye!' },
        ],
        edges: [{ from: 'hello', to: 'bye' }],
      },
    ],
  };
}
