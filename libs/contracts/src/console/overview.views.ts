// Answer of GET /v1/bots/:botId/overview (the console's home page).

/** The range a request may ask for at most, in days (both ends included). */
export const OVERVIEW_MAX_DAYS = 366;
/** The range when none is given: the last 30 days, today included. */
export const OVERVIEW_DEFAULT_DAYS = 30;

/** Messages in each status now (pending: queued or being sent). */
export interface OverviewStatusCounts {
  pending: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export interface OverviewDay {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Carousel messages created that day (table messages), by their status now. */
  carousels: OverviewStatusCounts;
  /** The bot's replies in conversations created that day, by their status now. */
  replies: OverviewStatusCounts;
}

/**
 * How far a template's or sender's carousel messages got: accepted (every message), sent (sent,
 * delivered or read now), delivered (delivered or read), read; failed beside; pending not sent yet.
 */
export interface OverviewFunnel {
  accepted: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  pending: number;
}

export interface OverviewTemplateFunnel extends OverviewFunnel {
  templateId: string;
  /** Null when the template was deleted after its messages were counted. */
  name: string | null;
  language: string | null;
}

export interface OverviewSenderFunnel extends OverviewFunnel {
  senderId: string;
  number: string | null;
}

export interface OverviewJourneyNode {
  node: string;
  kind: string;
  /** Conversations that ran the node at least once. */
  reached: number;
  steps: number;
  /** Steps that failed (outcome error or limit). */
  errors: number;
  /** errors / steps, 0-1 (0 without steps). */
  errorRate: number;
  /** Conversations whose last step of the journey was this node. */
  stopped: number;
  /** Of those: an end node, the journey completed. */
  ended: number;
  /** Of those: a `goto` node, the conversation went on in another journey (the journey completed too). */
  handedOn: number;
  /** A `goto` node: the journey it continues in, as the published version names it; null for other nodes, or when the published version no longer has the node. */
  handsOnTo: string | null;
  /** Of those: left waiting for the user's answer here (the drop-off). */
  waiting: number;
}

export interface OverviewJourney {
  journey: string;
  /** Conversations that ran the journey (one each however often). */
  conversations: number;
  /** Conversations that finished it: at an end node, or handed on to another journey by a `goto` node (handedOn). */
  completed: number;
  /** completed / conversations, 0-1. */
  completionRate: number;
  /** Of the completed: those a `goto` node handed on to another journey. */
  handedOn: number;
  /** The journeys its `goto` nodes handed conversations on to (as the published version names them), most first. */
  handedOnTo: string[];
  /** Left waiting at some node. */
  waiting: number;
  errors: number;
  steps: number;
  /** The journey's nodes, most reached first. */
  nodes: OverviewJourneyNode[];
}

export interface OverviewResponse {
  /** The range, UTC days, both ends included. */
  from: string;
  to: string;
  /** Every day of the range, oldest first (days without messages are zeros). */
  days: OverviewDay[];
  totals: { carousels: OverviewStatusCounts & { accepted: number }; replies: OverviewStatusCounts };
  /** Conversations started in the range, per channel (both channels always listed). */
  conversations: Array<{ channel: 'whatsapp' | 'web'; conversations: number }>;
  templates: OverviewTemplateFunnel[];
  senders: OverviewSenderFunnel[];
  /** The bot's sender numbers now (deleted ones left out): none, and the console asks for one; some, and an empty funnel means only that none sent in the range. */
  senderNumbers: number;
  journeys: OverviewJourney[];
}
