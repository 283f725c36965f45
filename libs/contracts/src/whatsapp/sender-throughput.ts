/**
 * Messages per second one WhatsApp sender number may be sent at. Meta's default throughput is 80 per
 * number; higher tiers reach 1,000.
 */
export const SENDER_THROUGHPUT = { default: 80, min: 1, max: 1000 } as const;

/** The problem with a throughput value, or null when it is an integer within SENDER_THROUGHPUT. */
export function senderThroughputProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < SENDER_THROUGHPUT.min || value > SENDER_THROUGHPUT.max) {
    return `throughput must be an integer from ${SENDER_THROUGHPUT.min} to ${SENDER_THROUGHPUT.max} (messages per second)`;
  }
  return null;
}
