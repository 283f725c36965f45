/**
 * The bounds of a bot definition, shared by the JSON Schema, the semantic checks and the engine. The reply
 * limits match the reply API (libs/contracts/src/conversations/send-conversation-message.dto.ts): the engine's
 * replies go out through it, so a definition that passes here never produces a reply the API would refuse.
 */
export const LIMITS = {
  journeys: 50,
  nodesPerJourney: 300,
  /** Edges per journey: a condition node may have many branches, so more than nodes. */
  edgesPerJourney: 1000,
  variables: 200,
  text: 4096,
  code: 65536,
  expression: 1000,
  pattern: 1000,
  quickReplies: 3,
  quickReplyTitle: 20,
  quickReplyPayload: 256,
  cards: 10,
  cardButtons: 3,
  cardTitle: 80,
  cardSubtitle: 160,
  url: 2048,
  caption: 1024,
  /** A choice question lists more than 3 choices in its text instead of as quick replies. */
  choices: 10,
  branches: 20,
  assignments: 50,
  httpMap: 50,
  headers: 50,
  headerValue: 4096,
  label: 200,
  reason: 200,
  functionTimeoutMs: 1000,
  functionMemoryMb: 64,
  httpTimeoutMs: 10000,
  maxRetries: 10,
  /** An answer longer than this is refused by every check. */
  answer: 4096,
} as const;

export const DEFAULT_FUNCTION_TIMEOUT_MS = 50;
export const DEFAULT_FUNCTION_MEMORY_MB = 16;
export const DEFAULT_HTTP_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_STEPS = 200;
export const DEFAULT_APOLOGY = 'Sorry, something went wrong. Please try again later.';
export const DEFAULT_RETRY_PROMPT = "Sorry, I didn't get that.";

export const VARIABLE_NAME = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
export const JOURNEY_SLUG = '^[a-z0-9][a-z0-9-]{0,63}$';
export const NODE_ID = '^[A-Za-z0-9_-]{1,64}$';
