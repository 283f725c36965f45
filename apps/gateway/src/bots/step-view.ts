import type { BotStepRow } from '@platform/database';

/** A recorded node run as the trace API and the console's inbox show it. */
export function toStepView(s: BotStepRow) {
  return {
    id: String(s.id),
    at: s.startedAt.toISOString(),
    version: s.version,
    journey: s.journey,
    node: s.node,
    kind: s.kind,
    outcome: s.outcome,
    error: s.error,
    durationMs: s.durationMs,
    sandboxMs: s.sandboxMs,
  };
}
