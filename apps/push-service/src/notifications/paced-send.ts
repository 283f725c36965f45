import { setTimeout as sleep } from 'node:timers/promises';
import type { PaceGrant } from '../fcm/fcm-pacer.js';

/** Longest a batch waits for its project's budget inside its job; a longer wait (a 429's Retry-After) delays the job instead. */
export const MAX_IN_JOB_WAIT_MS = 2000;

export interface PaceClock {
  sleep(ms: number): Promise<void>;
}

export const realClock: PaceClock = { sleep: (ms) => sleep(ms) };

export interface PacedSend {
  /** Messages of the batch, indexes 0 … count - 1. */
  count: number;
  /** Asks the project's pacer for up to `want` messages. */
  take(want: number): Promise<PaceGrant>;
  /** Sends messages from … to - 1, granted as `chunk` (not awaited here: the caller awaits all of them). */
  send(from: number, to: number, chunk?: string): void;
  /** True: the notification stopped; the rest is handed to send() at once (it answers them unsent). */
  stopped(): boolean;
  /** Reports each wait in the job (metrics). */
  onWait?(ms: number): void;
  clock?: PaceClock;
}

/**
 * Hands a batch's messages to `send` as the project's FCM budget allows: what a second's budget lets
 * go is sent at once, and the batch waits in its job for the next second's (at most a second, so a
 * job holds its concurrency slot only while it is making progress). A wait longer than
 * MAX_IN_JOB_WAIT_MS (the project is held after a 429) stops here: resolves with how many were
 * handed to send and the wait, and the caller delays the job for the rest (no attempt is used).
 */
export async function sendPaced(p: PacedSend): Promise<{ handed: number; delayMs?: number }> {
  const clock = p.clock ?? realClock;
  let next = 0;
  while (next < p.count) {
    if (p.stopped()) {
      p.send(next, p.count);
      return { handed: p.count };
    }
    const { granted, waitMs, chunk } = await p.take(p.count - next);
    if (granted > 0) {
      p.send(next, next + granted, chunk);
      next += granted;
    }
    if (next === p.count) break;
    if (waitMs > MAX_IN_JOB_WAIT_MS) return { handed: next, delayMs: waitMs };
    p.onWait?.(waitMs);
    await clock.sleep(Math.max(1, waitMs));
  }
  return { handed: next };
}
