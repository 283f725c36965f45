/** Beyond the longest a send can take: the time to record its outcome. */
const RECORD_MARGIN_MS = 5000;

/**
 * How long a claim holds a message for the run that made it (`claimed_until`): the job's lock, then the
 * longest the send can take (its wait for a pacing slot and the Cloud API's timeout), then the time to
 * record it. A worker whose process stalls past its lock is taken over by the queue, but the run that
 * takes the job over waits for the lease: unless the stall outlasts the lock and the send together, the
 * stalled worker wakes, hears Meta's answer and records it, and the message goes once. A job taken over
 * from a dead worker waits that much longer (only a message that was mid-send when it died).
 */
export function sendLeaseMs(lockMs: number, pacingWaitMs: number, sendTimeoutMs: number): number {
  return lockMs + pacingWaitMs + sendTimeoutMs + RECORD_MARGIN_MS;
}
