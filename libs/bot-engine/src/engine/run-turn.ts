import type { BotTurnResult } from '@platform/contracts';
import { journeyForPayload } from './journey-for-payload.js';
import { Turn } from './turn.js';
import type { TurnRequest } from './turn-ports.js';

/**
 * Runs one turn of a conversation's hosted bot (semantics in docs/bots.md):
 * - `start` with a journeySlug starts that journey afresh (an unknown slug: the start journey, with an error
 *   step); without one it resumes a waiting or handed-off conversation unchanged, else starts the start journey.
 * - `message`: silent while in handoff; a `journey:<slug>` payload naming a journey (re)starts it; otherwise it
 *   answers the waiting question, or, with no journey running, starts the start journey (not as an answer);
 *   a journey a message starts keeps the session's payload (`sessionPayload` when no state is kept).
 * - `handback`: goes on by the handoff node's `next` edge (none: the journey ends).
 * Pure apart from the ports; never throws for a bot's own failures (they are steps with outcome error/limit).
 */
export async function runTurn(request: TurnRequest): Promise<BotTurnResult> {
  const { definition, state, input } = request;
  const turn = new Turn(request);
  const running = state !== null && (state.status === 'waiting' || state.status === 'handoff');
  const unchanged = (): BotTurnResult => ({ state: running ? state : null, outputs: [], steps: [], logs: [] });

  switch (input.kind) {
    case 'start': {
      if (input.journeySlug === undefined) {
        if (running) return unchanged();
        await turn.start(definition.startJourney, input.payload);
        break;
      }
      if (!turn.journey(input.journeySlug)) {
        const start = turn.journey(definition.startJourney)!;
        turn.recordProblem(start.nodes.get(start.journey.start)!, definition.startJourney, `the journey "${input.journeySlug}" does not exist: started "${definition.startJourney}"`);
        await turn.start(definition.startJourney, input.payload);
        break;
      }
      await turn.start(input.journeySlug, input.payload);
      break;
    }
    case 'message': {
      if (state?.status === 'handoff') return unchanged();
      const payload = running ? state.payload : (state?.payload ?? request.sessionPayload ?? null);
      const named = journeyForPayload(definition, input.payload);
      if (named) {
        await turn.start(named, payload);
        break;
      }
      const waiting = running ? turn.journey(state.journey)?.nodes.get(state.node) : undefined;
      if (waiting?.kind === 'question') {
        await turn.answer(waiting, input.text, input.payload);
        break;
      }
      if (running) {
        // The stored node is not a question of this definition (it changed under the conversation): start over.
        const start = turn.journey(definition.startJourney)!;
        turn.recordProblem(
          start.nodes.get(start.journey.start)!,
          definition.startJourney,
          `the waiting node "${state.journey}/${state.node}" is not a question of version ${request.version}: started over`,
        );
      }
      await turn.start(definition.startJourney, payload);
      break;
    }
    case 'handback': {
      if (state?.status !== 'handoff') return unchanged();
      const node = turn.journey(state.journey)?.nodes.get(state.node);
      // The handoff node is gone from this version: nothing to go on from, so the journey ends (the bot is free again).
      if (!node) return { state: null, outputs: [], steps: [], logs: [] };
      await turn.handback(node);
      break;
    }
  }
  return { state: turn.result(), outputs: turn.outputs, steps: turn.steps, logs: turn.logs };
}
