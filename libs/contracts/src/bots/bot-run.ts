import type { QuickReply, CarouselCard, ImageContent } from '../conversations/message-content.js';
import type { BotNodeKind } from './bot-definition.js';

/** Where a conversation is in its bot: kept in Postgres (`bot_conversation_states`) between turns. */
export interface BotRunState {
  /** The published version the journey started on; kept until the conversation's journey ends. */
  version: number;
  journey: string;
  /** The node waiting for the user (a question), or the handoff node. */
  node: string;
  status: 'waiting' | 'handoff' | 'ended';
  variables: Record<string, unknown>;
  /** Times the current question was re-asked. */
  retries: number;
  /** The web session's payload exactly as the bot receives it: a JSON string (null on WhatsApp). */
  payload: string | null;
}

/** What wakes the bot for one turn. */
export type BotTurnInput =
  /** A web session started, or a push tap opened one (its JourneySlug), or a carousel card's quick reply named a journey. */
  | { kind: 'start'; payload: string | null; journeySlug?: string }
  /** A user's message. */
  | { kind: 'message'; text?: string; payload?: string }
  /** An agent handed the conversation back: the bot goes on after the handoff node. */
  | { kind: 'handback' };

/** What a reply looks like to the reply path: the reply API's body. */
export type BotReply = { text: string; quickReplies?: QuickReply[] } | { image: ImageContent } | { cards: CarouselCard[] };

/** `app.sendEvent`'s argument, in the spec's shape. */
export interface BotAppEvent {
  code: string;
  data: { code: string; data: string };
}

export type BotOutput = { kind: 'reply'; reply: BotReply } | { kind: 'event'; event: BotAppEvent } | { kind: 'handoff'; reason?: string };

export type StepOutcome = 'ok' | 'waiting' | 'error' | 'limit';

/** One node run, for the trace (`bot_steps`) and the metrics. */
export interface BotStepRecord {
  journey: string;
  node: string;
  kind: BotNodeKind;
  startedAt: Date;
  durationMs: number;
  outcome: StepOutcome;
  /** Why it failed (no secrets, no user data beyond the node's own). */
  error?: string;
  /** Function nodes: the sandbox's time. */
  sandboxMs?: number;
  /** The variables as the step left them (the state's own object: replaced, never changed in place). Stored for builder tests only. */
  variables?: Record<string, unknown>;
}

export interface BotTurnResult {
  /** null: no journey runs any more (ended). */
  state: BotRunState | null;
  outputs: BotOutput[];
  steps: BotStepRecord[];
  /** Lines the function nodes logged with `app.log` (bounded). */
  logs: string[];
}
