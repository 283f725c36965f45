import { Inject, Injectable, Logger } from '@nestjs/common';
import type { HttpCaller, TurnPorts } from '@platform/bot-engine';
import type { BotDefinition, BotRunState, BotStepRecord, BotTurnJob, FunctionRunner } from '@platform/contracts';
import { type BotRunConversation, BotRunRepository, type HandoverItem, type LockedBotTurn, MAX_INPUTS_PER_TURN } from '@platform/database';
import { BotSecrets } from '../ports/bot-secrets.js';
import { BotMetrics } from './bot-metrics.js';
import { OutboxHandover } from './outbox-handover.js';
import { TurnEngine } from './turn-engine.js';
import { TurnSlots } from './turn-slots.js';

/** Injection tokens of the engine's ports (interfaces, so tokens of their own). */
export const FUNCTION_RUNNER = Symbol('FUNCTION_RUNNER');
export const HTTP_CALLER = Symbol('HTTP_CALLER');

/** What one job did, for its log line. */
export interface TurnSummary {
  conversationId: string;
  /** false: the conversation was erased; nothing was done. */
  found: boolean;
  inputs: number;
  steps: number;
  /** Steps that failed or hit a limit. */
  failedSteps: number;
  outputs: number;
  /** Outbox items handed to the reply path, those left by an earlier run included. */
  handedOver: number;
}

interface SliceSummary {
  inputs: number;
  steps: number;
  failedSteps: number;
  outputs: number;
  /** A web conversation whose outbox was empty when the turn began: what the turn wrote is the whole outbox. */
  written: { conversation: BotRunConversation; items: HandoverItem[] } | null;
}

/**
 * One bot-turn job: a conversation's waiting inputs through the engine, in order. In one transaction
 * with the conversation's state row locked, each input runs on the version its journey started on (none
 * running: the published one) and its state, replies, app events and steps are written with the input
 * marked processed; after the commit the outbox goes to the reply path, with anything an earlier run
 * committed but did not hand over (it died in between) first; on web, when nothing older waited, the
 * items the turn wrote are handed over without reading the outbox back. A replica taking a job of the
 * same conversation meanwhile waits on the lock and then finds the inputs processed. Any failure
 * (Postgres, Redis) throws: the transaction rolls back and the job is retried.
 */
@Injectable()
export class BotTurnService {
  private readonly logger = new Logger('BotTurn');

  constructor(
    private readonly runs: BotRunRepository,
    private readonly engine: TurnEngine,
    private readonly outbox: OutboxHandover,
    private readonly secrets: BotSecrets,
    private readonly slots: TurnSlots,
    private readonly metrics: BotMetrics,
    @Inject(FUNCTION_RUNNER) private readonly functions: FunctionRunner,
    @Inject(HTTP_CALLER) private readonly http: HttpCaller,
  ) {}

  async take(job: BotTurnJob): Promise<TurnSummary> {
    const summary: TurnSummary = { conversationId: job.conversationId, found: true, inputs: 0, steps: 0, failedSteps: 0, outputs: 0, handedOver: 0 };
    // What an earlier run committed but did not hand over (it died in between) is still in the outbox,
    // ahead of this run's outputs: the handover after the turn takes the whole outbox in order.
    for (;;) {
      const slice = await this.slots.run(() => this.runs.withTurn(job.conversationId, job.botId, (turn) => this.process(job, turn)));
      if (!slice) return { ...summary, found: false };
      summary.inputs += slice.inputs;
      summary.steps += slice.steps;
      summary.failedSteps += slice.failedSteps;
      summary.outputs += slice.outputs;
      summary.handedOver += slice.written ? await this.outbox.handOverWeb(slice.written.conversation, slice.written.items) : await this.outbox.handOver(job.conversationId);
      // A full slice may have left inputs behind: take the next one in the same job.
      if (slice.inputs < MAX_INPUTS_PER_TURN) return summary;
    }
  }

  private async process(job: BotTurnJob, turn: LockedBotTurn): Promise<SliceSummary> {
    const written: HandoverItem[] | null = turn.conversation.channel === 'web' && !turn.outboxWaiting ? [] : null;
    const keep = (items: HandoverItem[]) => void written?.push(...items);
    const slice: SliceSummary = { inputs: 0, steps: 0, failedSteps: 0, outputs: 0, written: written && { conversation: turn.conversation, items: written } };
    const ports: TurnPorts = { functions: this.functions, http: this.http, secrets: this.secrets.forTurn(() => turn.sealedSecrets()) };
    const definitions = new Map<number, Promise<BotDefinition | null>>();
    const definition = (version: number) => definitions.get(version) ?? definitions.set(version, turn.definition(version)).get(version)!;
    let published: Promise<number | null> | undefined;
    let state: BotRunState | null = turn.state;
    let bareHandoff = turn.bareHandoff;
    for (const pending of turn.inputs) {
      slice.inputs++;
      if (bareHandoff) {
        // An agent has the conversation and no journey ran before: silent until the handback, which ends the handoff.
        if (pending.input.kind === 'handback') {
          keep(await turn.record(pending, { state: null, outputs: [], steps: [], version: null }));
          bareHandoff = false;
        } else await turn.skip(pending);
        continue;
      }
      let version = state ? state.version : await (published ??= turn.publishedVersion());
      let found = version === null ? null : await definition(version);
      if (state && !found) {
        // The running journey's version is gone (its bot's versions were removed): start afresh on the published one.
        this.logger.warn(`conversation ${job.conversationId}: version ${state.version} of its journey is gone; starting on the published version`);
        state = null;
        version = await (published ??= turn.publishedVersion());
        found = version === null ? null : await definition(version);
      }
      if (version === null || !found) {
        this.logger.warn(`conversation ${job.conversationId}: input ${pending.seq} (${pending.input.kind}) left unanswered: bot ${job.botId} has no published version`);
        keep(await turn.record(pending, { state, outputs: [], steps: [], version: null }));
        continue;
      }
      const started = performance.now();
      // No journey runs, so no state keeps the web session's payload: a message starting the next journey
      // gets it from the session's start, as the journey that start began did.
      const sessionPayload = state === null && pending.input.kind === 'message' && turn.conversation.channel === 'web' ? await turn.sessionPayload(pending.seq) : undefined;
      const result = await this.engine.run({ definition: found, version, state, input: pending.input, ports, ...(sessionPayload !== undefined ? { sessionPayload } : {}) });
      this.metrics.turn((performance.now() - started) / 1000);
      this.metrics.steps(result.steps);
      for (const step of result.steps.filter(failed)) {
        this.logger.warn(`conversation ${job.conversationId} (bot ${job.botId}, version ${version}): ${step.kind} node ${step.journey}/${step.node} ${step.outcome}: ${step.error ?? ''}`);
      }
      keep(await turn.record(pending, { state: result.state, outputs: result.outputs, steps: result.steps, version }));
      state = result.state;
      slice.steps += result.steps.length;
      slice.failedSteps += result.steps.filter(failed).length;
      slice.outputs += result.outputs.filter((o) => o.kind !== 'handoff').length;
    }
    return slice;
  }
}

function failed(step: BotStepRecord): boolean {
  return step.outcome === 'error' || step.outcome === 'limit';
}
