/**
 * A hosted bot's definition (schema version 1): typed variables and journeys of nodes joined by edges.
 * The JSON Schema that validates it is `libs/bot-engine/src/definition/bot-definition.schema.ts`,
 * published at `GET /v1/bot-definition.schema.json`; these types mirror it.
 */
export const BOT_DEFINITION_SCHEMA_VERSION = 1;

export type BotVariableType = 'string' | 'number' | 'boolean' | 'object' | 'array';

export interface BotVariable {
  /** Read as `variables.<name>` in templates and expressions: `^[A-Za-z_][A-Za-z0-9_]{0,63}$`. */
  name: string;
  type: BotVariableType;
  /** Of the declared type; otherwise '', 0, false, {} or []. */
  default?: unknown;
}

export interface BotSettings {
  /** A function node's CPU-time limit: 50 ms by default, at most 1000. */
  functionTimeoutMs?: number;
  /** A function node's memory limit in MiB: 16 by default, at most 64. */
  functionMemoryMb?: number;
  /** Sent when a node fails and has no `error` edge. */
  apology?: string;
}

export interface BotDefinition {
  schemaVersion: 1;
  /** The journey a conversation starts when nothing names another. */
  startJourney: string;
  variables: BotVariable[];
  journeys: BotJourney[];
  settings?: BotSettings;
}

export interface BotJourney {
  /** `^[a-z0-9][a-z0-9-]{0,63}$`: what `JourneySlug` and `goto` name. */
  slug: string;
  name?: string;
  /** Id of the journey's first node. */
  start: string;
  nodes: BotNode[];
  edges: BotEdge[];
}

/**
 * Edge labels: `next` (the default: a node done), `error` (function, http: failed or over a limit),
 * `invalid` (question: retries used up), `else` and each branch id (condition).
 */
export interface BotEdge {
  from: string;
  to: string;
  on?: string;
}

export interface BotButton {
  title: string;
  /** What the bot receives when tapped; the title when absent. */
  payload?: string;
}

export interface BotCard {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  buttons: BotButton[];
}

interface NodeBase {
  /** Unique in its journey: `^[A-Za-z0-9_-]{1,64}$`. */
  id: string;
  /** Shown in the console and the trace. */
  label?: string;
}

/** Exactly one of `text`, `image` or `cards`; strings are templates (`{{variables.profile.name}}`). */
export interface MessageNode extends NodeBase {
  kind: 'message';
  text?: string;
  quickReplies?: BotButton[];
  image?: { url: string; caption?: string };
  cards?: BotCard[];
}

export type AnswerCheck =
  | { type: 'text'; minLength?: number; maxLength?: number }
  | { type: 'number'; min?: number; max?: number }
  | { type: 'email' }
  | { type: 'phone' }
  | { type: 'choice'; choices: BotButton[] }
  | { type: 'pattern'; pattern: string; flags?: string };

export interface QuestionNode extends NodeBase {
  kind: 'question';
  text: string;
  /** Shown as quick replies; a `choice` check shows its choices. */
  quickReplies?: BotButton[];
  answer: AnswerCheck;
  /** Where the answer is stored (number answers as numbers, choices as their payload). */
  variable: string;
  /** Sent before asking again; default "Sorry, I didn't get that." */
  retryPrompt?: string;
  /** Re-asks at most this often (default 2), then follows `invalid`, or apologises and ends. */
  maxRetries?: number;
}

export interface ConditionNode extends NodeBase {
  kind: 'condition';
  /** Tried in order; the first true one's `id` is the edge label followed, else `else`. */
  branches: Array<{ id: string; when: string }>;
}

export interface FunctionNode extends NodeBase {
  kind: 'function';
  /**
   * JavaScript run in the sandbox: an ES module whose default export is called as
   * `main(payload, { variables })`, or a function body that sees `payload`, `variables` and `app`.
   */
  code: string;
  /** Where the return value is stored (it must match the variable's type). */
  variable?: string;
  /** Overrides the bot's `functionTimeoutMs` (≤ 1000). */
  timeoutMs?: number;
}

export interface HttpNode extends NodeBase {
  kind: 'http';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A template; `{{secrets.NAME}}` reads the bot's secret store (only in http nodes). */
  url: string;
  headers?: Record<string, string>;
  /** JSON sent as the body; string leaves are templates. */
  body?: unknown;
  /** Default 5000, at most 10000. */
  timeoutMs?: number;
  /** Copies parts of the answer into variables: `path` is `status`, `body` or `body.<member>...`. */
  map?: Array<{ variable: string; path: string }>;
}

export interface SetNode extends NodeBase {
  kind: 'set';
  /** Each `value` is an expression. */
  assignments: Array<{ variable: string; value: string }>;
}

export interface GotoNode extends NodeBase {
  kind: 'goto';
  journey: string;
}

export interface HandoffNode extends NodeBase {
  kind: 'handoff';
  /** Sent to the user before the bot falls silent. */
  text?: string;
  reason?: string;
}

export interface EndNode extends NodeBase {
  kind: 'end';
  text?: string;
}

export type BotNode = MessageNode | QuestionNode | ConditionNode | FunctionNode | HttpNode | SetNode | GotoNode | HandoffNode | EndNode;
export type BotNodeKind = BotNode['kind'];

/** One problem of a definition, named by where it is. */
export interface DefinitionError {
  journey?: string;
  node?: string;
  /** A JSON-pointer-like path inside the node or the document, e.g. `answer.pattern` or `variables[2].default`. */
  field?: string;
  message: string;
}
