import type {
  BotDefinition,
  BotNode,
  BotOutput,
  BotRunState,
  BotReply,
  BotStepRecord,
  BotVariableType,
  ConditionNode,
  FunctionNode,
  FunctionRunOutcome,
  HttpNode,
  QuestionNode,
  SetNode,
  StepOutcome,
} from '@platform/contracts';
import {
  DEFAULT_APOLOGY,
  DEFAULT_FUNCTION_MEMORY_MB,
  DEFAULT_FUNCTION_TIMEOUT_MS,
  DEFAULT_HTTP_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_STEPS,
  DEFAULT_RETRY_PROMPT,
} from '../definition/definition-limits.js';
import { follow, indexDefinition, type IndexedJourney } from '../definition/definition-index.js';
import { evaluateExpression, truthy } from '../expressions/evaluate-expression.js';
import { ExpressionError } from '../expressions/expression-error.js';
import { jsonCopy, jsonTypeOf, ownMember } from '../expressions/json-values.js';
import { cachedExpression } from '../expressions/parse-expression.js';
import { renderChatText, renderHeader, renderJsonBody, renderUrl, type TemplateScope } from '../templates/render-template.js';
import { TemplateError } from '../templates/template-error.js';
import { checkAnswer } from './answer-checks.js';
import { messageReply, questionPrompt, textReply } from './replies.js';
import type { HttpOutcome, TurnRequest } from './turn-ports.js';

/** What a node run decided: the next node, or stop (waiting for the user or an agent), or the journey's end. */
type Next = { node: BotNode } | 'wait' | 'end';

interface NodeResult {
  outcome: StepOutcome;
  error?: string;
  sandboxMs?: number;
  next: Next;
}

/** The state while nodes run: `running` between a wait and the next (never stored). */
type WorkingState = Omit<BotRunState, 'status'> & { status: BotRunState['status'] | 'running' };

const MAX_LOG_LINES = 200;
const MAX_ERROR_CHARS = 500;

/**
 * One turn's work: the running state, the outputs, the step records. Nodes run one after another until one
 * waits (a question, a handoff) or the journey ends; every node run is a step, failed ones included.
 */
export class Turn {
  readonly outputs: BotOutput[] = [];
  readonly steps: BotStepRecord[] = [];
  readonly logs: string[] = [];
  private readonly definition: BotDefinition;
  private readonly declared: Map<string, BotVariableType>;
  private readonly maxSteps: number;
  private state: WorkingState;
  private secrets: Record<string, string> | undefined;

  constructor(private readonly request: TurnRequest) {
    this.definition = request.definition;
    this.declared = new Map(request.definition.variables.map((variable) => [variable.name, variable.type]));
    this.maxSteps = request.maxSteps ?? DEFAULT_MAX_STEPS;
    const previous = request.state;
    this.state = previous
      ? { ...previous, variables: jsonCopy(previous.variables) }
      : { version: request.version, journey: request.definition.startJourney, node: '', status: 'ended', variables: {}, retries: 0, payload: null };
  }

  /** The state to keep: null once the journey ended. */
  result(): BotRunState | null {
    const { status } = this.state;
    return status === 'waiting' || status === 'handoff' ? { ...this.state, status } : null;
  }

  journey(slug: string): IndexedJourney | undefined {
    return indexDefinition(this.definition).journeys.get(slug);
  }

  /** Starts a journey afresh: the published version, variables at their defaults, the payload kept. */
  async start(slug: string, payload: string | null): Promise<void> {
    const journey = this.journey(slug)!;
    this.state = { version: this.request.version, journey: slug, node: journey.journey.start, status: 'running', variables: this.defaults(), retries: 0, payload };
    await this.run(journey.nodes.get(journey.journey.start));
  }

  /** A step that records a problem found before any node ran (e.g. an unknown journey slug), on the node it concerns. */
  recordProblem(node: BotNode, journey: string, error: string): void {
    this.steps.push({ journey, node: node.id, kind: node.kind, startedAt: new Date(), durationMs: 0, outcome: 'error', error: clip(error) });
  }

  /** The user's message answers the waiting question. */
  async answer(question: QuestionNode, text: string | undefined, payload: string | undefined): Promise<void> {
    await this.run(question, () => this.answered(question, text, payload));
  }

  /** An agent handed the conversation back: go on by the handoff node's `next` edge. */
  async handback(node: BotNode): Promise<void> {
    this.state = { ...this.state, status: 'running' };
    // An agent may take a conversation over while it waits at a question (the handoff API): handed back,
    // the bot asks that question again; after a handoff node it goes on by the node's `next` edge.
    if (node.kind !== 'handoff') return this.run(node);
    await this.run(node, () => Promise.resolve({ outcome: 'ok', next: this.edge(node, 'next') }));
  }

  /** Runs nodes from `first` (its run given by `firstRun` when it is not an ordinary entry) until a wait or the end. */
  private async run(first: BotNode | undefined, firstRun?: () => Promise<NodeResult>): Promise<void> {
    let node = first;
    let runner = firstRun;
    while (node) {
      if (this.steps.length >= this.maxSteps) {
        this.steps.push({ journey: this.state.journey, node: node.id, kind: node.kind, startedAt: new Date(), durationMs: 0, outcome: 'limit', error: `more than ${this.maxSteps} steps in one turn` });
        this.apologise();
        return;
      }
      const current: BotNode = node;
      const journey = this.state.journey;
      const startedAt = new Date();
      const began = performance.now();
      let result: NodeResult;
      try {
        result = await (runner ? runner() : this.execute(current));
      } catch (error) {
        // A port that threw, or a bug: the turn still ends cleanly with a recorded step and an apology.
        result = { outcome: 'error', error: `${current.kind} node failed: ${messageOf(error)}`, next: this.apologise() };
      }
      runner = undefined;
      this.steps.push({
        journey,
        node: current.id,
        kind: current.kind,
        startedAt,
        durationMs: performance.now() - began,
        outcome: result.outcome,
        ...(result.error !== undefined ? { error: clip(this.scrub(result.error)) } : {}),
        ...(result.sandboxMs !== undefined ? { sandboxMs: result.sandboxMs } : {}),
        variables: this.state.variables,
      });
      if (result.next === 'end') {
        this.state = { ...this.state, status: 'ended' };
        return;
      }
      if (result.next === 'wait') return;
      node = result.next.node;
    }
    // No edge left to follow: the journey is over.
    this.state = { ...this.state, status: 'ended' };
  }

  private execute(node: BotNode): Promise<NodeResult> {
    switch (node.kind) {
      case 'message':
        return this.sync(() => this.message(node));
      case 'question':
        return this.sync(() => this.ask(node));
      case 'condition':
        return this.sync(() => this.condition(node));
      case 'function':
        return this.function(node);
      case 'http':
        return this.http(node);
      case 'set':
        return this.sync(() => this.set(node));
      case 'goto':
        return this.sync(() => {
          const target = this.journey(node.journey);
          if (!target) return { outcome: 'error', error: `goto names the journey "${node.journey}", which does not exist`, next: this.apologise() };
          this.state = { ...this.state, journey: node.journey, node: target.journey.start };
          const start = target.nodes.get(target.journey.start);
          return { outcome: 'ok', next: start ? { node: start } : 'end' };
        });
      case 'handoff':
        return this.sync(() => {
          if (node.text !== undefined) this.reply(textReply(node.text, undefined, this.scope()));
          const reason = node.reason !== undefined ? renderChatText(node.reason, this.scope(), 200) : '';
          this.outputs.push({ kind: 'handoff', ...(reason ? { reason } : {}) });
          this.state = { ...this.state, node: node.id, status: 'handoff', retries: 0 };
          return { outcome: 'waiting', next: 'wait' };
        });
      case 'end':
        return this.sync(() => {
          if (node.text !== undefined) this.reply(textReply(node.text, undefined, this.scope()));
          return { outcome: 'ok', next: 'end' };
        });
    }
  }

  /** Runs a node that needs no port; its exceptions still reach run()'s handler as a rejected promise. */
  private async sync(run: () => NodeResult): Promise<NodeResult> {
    return run();
  }

  private message(node: Extract<BotNode, { kind: 'message' }>): NodeResult {
    try {
      this.reply(messageReply(node, this.scope()));
    } catch (error) {
      if (error instanceof TemplateError) return { outcome: 'error', error: error.message, next: this.apologise() };
      throw error;
    }
    return { outcome: 'ok', next: this.edge(node, 'next') };
  }

  private ask(node: QuestionNode): NodeResult {
    this.reply(questionPrompt(node, this.scope()));
    this.state = { ...this.state, node: node.id, status: 'waiting', retries: 0 };
    return { outcome: 'waiting', next: 'wait' };
  }

  private async answered(node: QuestionNode, text: string | undefined, payload: string | undefined): Promise<NodeResult> {
    const answer = checkAnswer(node.answer, text, payload);
    if (answer.ok) {
      this.state = { ...this.state, variables: { ...this.state.variables, [node.variable]: answer.value }, retries: 0, status: 'running' };
      return { outcome: 'ok', next: this.edge(node, 'next') };
    }
    const maxRetries = node.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (this.state.retries < maxRetries) {
      this.reply(textReply(node.retryPrompt ?? DEFAULT_RETRY_PROMPT, undefined, this.scope()));
      this.reply(questionPrompt(node, this.scope()));
      this.state = { ...this.state, retries: this.state.retries + 1 };
      return { outcome: 'waiting', error: answer.reason, next: 'wait' };
    }
    this.state = { ...this.state, retries: 0, status: 'running' };
    return { outcome: 'error', error: `${answer.reason} (retries used up)`, next: this.failure(node, 'invalid') };
  }

  private condition(node: ConditionNode): NodeResult {
    for (const branch of node.branches) {
      let value: unknown;
      try {
        value = evaluateExpression(cachedExpression(branch.when), this.scope());
      } catch (error) {
        if (error instanceof ExpressionError) return { outcome: 'error', error: `branch ${branch.id}: ${error.message}`, next: this.apologise() };
        throw error;
      }
      if (truthy(value)) return { outcome: 'ok', next: this.edge(node, branch.id) };
    }
    return { outcome: 'ok', next: this.edge(node, 'else') };
  }

  private set(node: SetNode): NodeResult {
    const variables = { ...this.state.variables };
    for (const assignment of node.assignments) {
      let value: unknown;
      try {
        value = evaluateExpression(cachedExpression(assignment.value), { variables, payload: this.state.payload });
      } catch (error) {
        if (error instanceof ExpressionError) return { outcome: 'error', error: `${assignment.variable}: ${error.message}`, next: this.apologise() };
        throw error;
      }
      const mismatch = this.mismatch(assignment.variable, value);
      if (mismatch) return { outcome: 'error', error: `the value ${mismatch}`, next: this.apologise() };
      variables[assignment.variable] = value;
    }
    this.state = { ...this.state, variables };
    return { outcome: 'ok', next: this.edge(node, 'next') };
  }

  private async function(node: FunctionNode): Promise<NodeResult> {
    const settings = this.definition.settings ?? {};
    let outcome: FunctionRunOutcome;
    try {
      outcome = await this.request.ports.functions.run({
        code: node.code,
        payload: this.state.payload,
        variables: jsonCopy(this.state.variables),
        timeoutMs: node.timeoutMs ?? settings.functionTimeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS,
        memoryBytes: (settings.functionMemoryMb ?? DEFAULT_FUNCTION_MEMORY_MB) * 1024 * 1024,
      });
    } catch (error) {
      return { outcome: 'error', error: `the sandbox failed: ${messageOf(error)}`, next: this.failure(node, 'error') };
    }
    // Events and logs count even when the code failed afterwards: they were sent before it did.
    for (const event of outcome.events) this.outputs.push({ kind: 'event', event });
    for (const line of outcome.logs) if (this.logs.length < MAX_LOG_LINES) this.logs.push(line);
    if (!outcome.ok) {
      const limit = outcome.failure === 'timeout' || outcome.failure === 'memory';
      return { outcome: limit ? 'limit' : 'error', error: `${outcome.failure}: ${outcome.message}`, sandboxMs: outcome.cpuMs, next: this.failure(node, 'error') };
    }
    if (node.variable !== undefined) {
      const mismatch = this.mismatch(node.variable, outcome.value);
      if (mismatch) return { outcome: 'error', error: `the function returned ${mismatch}`, sandboxMs: outcome.cpuMs, next: this.failure(node, 'error') };
      this.state = { ...this.state, variables: { ...this.state.variables, [node.variable]: jsonCopy(outcome.value) } };
    }
    return { outcome: 'ok', sandboxMs: outcome.cpuMs, next: this.edge(node, 'next') };
  }

  private async http(node: HttpNode): Promise<NodeResult> {
    try {
      this.secrets ??= await this.request.ports.secrets();
    } catch (error) {
      return { outcome: 'error', error: `the secret store failed: ${messageOf(error)}`, next: this.failure(node, 'error') };
    }
    const scope: TemplateScope = { ...this.scope(), secrets: this.secrets };
    let url: string;
    try {
      url = renderUrl(node.url, scope);
    } catch (error) {
      if (error instanceof TemplateError) return { outcome: 'error', error: error.message, next: this.failure(node, 'error') };
      throw error;
    }
    const headers = Object.fromEntries(Object.entries(node.headers ?? {}).map(([name, value]) => [name, renderHeader(value, scope)]));
    const body = node.body !== undefined ? renderJsonBody(node.body, scope) : undefined;
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    let outcome: HttpOutcome;
    try {
      outcome = await this.request.ports.http.call({ method: node.method, url, headers, ...(body !== undefined ? { body } : {}), timeoutMs: node.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS });
    } catch (error) {
      return { outcome: 'error', error: `the call failed: ${messageOf(error)}`, next: this.failure(node, 'error') };
    }
    if (!outcome.ok) return { outcome: 'error', error: outcome.error, next: this.failure(node, 'error') };
    const variables = { ...this.state.variables };
    const success = outcome.status >= 200 && outcome.status < 300;
    // The status is stored whatever it is (an error edge may branch on it); the body only from a 2xx answer.
    for (const entry of node.map ?? []) {
      if (entry.path !== 'status' && !success) continue;
      const value =
        entry.path === 'status'
          ? outcome.status
          : entry.path
              .split('.')
              .slice(1)
              .reduce<unknown>((current, key) => ownMember(current, key), outcome.body);
      const mismatch = this.mismatch(entry.variable, value);
      if (mismatch) return { outcome: 'error', error: `the answer's ${entry.path} is ${mismatch}`, next: this.failure(node, 'error') };
      variables[entry.variable] = jsonCopy(value);
    }
    this.state = { ...this.state, variables };
    if (!success) return { outcome: 'error', error: `the server answered ${outcome.status}`, next: this.failure(node, 'error') };
    return { outcome: 'ok', next: this.edge(node, 'next') };
  }

  /** Where a failed node goes: its error (or invalid) edge, else the apology and the journey's end. */
  private failure(node: BotNode, label: 'error' | 'invalid'): Next {
    const next = follow(this.journey(this.state.journey)!, node.id, label);
    return next ? { node: next } : this.apologise();
  }

  private edge(node: BotNode, label: string): Next {
    const next = follow(this.journey(this.state.journey)!, node.id, label);
    return next ? { node: next } : 'end';
  }

  private apologise(): 'end' {
    this.reply({ text: this.definition.settings?.apology ?? DEFAULT_APOLOGY });
    this.state = { ...this.state, status: 'ended' };
    return 'end';
  }

  private reply(reply: BotReply): void {
    this.outputs.push({ kind: 'reply', reply });
  }

  /** Why `value` cannot go into `variable` ("a string, but profile is an object"), or null when it can. */
  private mismatch(variable: string, value: unknown): string | null {
    const declared = this.declared.get(variable);
    const actual = jsonTypeOf(value);
    if (declared === undefined) return `for "${variable}", which is not declared`;
    return actual === declared ? null : `${actual === 'null' ? 'nothing (null)' : `a ${actual}`}, but "${variable}" is declared ${declared}`;
  }

  private defaults(): Record<string, unknown> {
    const empty: Record<BotVariableType, unknown> = { string: '', number: 0, boolean: false, object: {}, array: [] };
    return Object.fromEntries(this.definition.variables.map((variable) => [variable.name, jsonCopy(variable.default ?? empty[variable.type])]));
  }

  /** What templates and expressions read (secrets are added by http nodes only). */
  private scope(): TemplateScope {
    return { variables: this.state.variables, payload: this.state.payload };
  }

  /** Error texts never carry a secret's value (an outside server may echo one back). */
  private scrub(text: string): string {
    let scrubbed = text;
    for (const value of Object.values(this.secrets ?? {})) if (value) scrubbed = scrubbed.split(value).join('[secret]');
    return scrubbed;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function clip(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}
