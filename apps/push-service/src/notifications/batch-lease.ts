import { BatchTakenOverError } from './batch-taken-over.error.js';

/** Beyond the longest a request to FCM can take: the time to record its outcome. */
const RECORD_MARGIN_MS = 5000;

/**
 * How long a run holds its batch after each renewal: the job's lock, then the longest one FCM request
 * can take, then the time to record its outcome. A process that stalls past its lock (a starved host, a
 * lock lost in a Redis failover) has its job handed to another replica, which waits for the lease
 * before sending: unless the stall outlasts the lock and a request together, the stalled run wakes,
 * renews, hears FCM's answers and records them, and no device gets the message twice. A batch taken
 * over from a dead process waits that much longer.
 */
export function batchLeaseMs(lockMs: number, fcmTimeoutMs: number): number {
  return lockMs + fcmTimeoutMs + RECORD_MARGIN_MS;
}

/** The Redis side of a lease: take (or renew) it for a run, or drop it; 0 = held by `runId` now, else ms another run still holds it. */
export interface LeaseKeys {
  take(runId: string, leaseMs: number): Promise<number>;
  drop(runId: string): Promise<void>;
}

/**
 * One run's hold on its batch. Renewed on a timer while the run lasts and before each chunk goes to
 * FCM (`ensureHeld`); once another run holds the batch, it is lost for good and `ensureHeld` throws
 * BatchTakenOverError.
 */
export class BatchLease {
  private lost = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly keys: LeaseKeys,
    private readonly runId: string,
    private readonly leaseMs: number,
    renewEveryMs: number,
    private readonly onRenewError: (err: Error) => void,
  ) {
    this.timer = setInterval(() => void this.renew().catch(this.onRenewError), renewEveryMs);
    this.timer.unref();
  }

  /** Renews the lease; throws BatchTakenOverError when another run holds the batch now. */
  async ensureHeld(): Promise<void> {
    await this.renew();
    if (this.lost) throw new BatchTakenOverError(`another run took the batch over (this run's lease of ${this.leaseMs} ms ran out while its process was stopped)`);
  }

  /** Ends the lease (only if this run still holds it); not awaited by callers that are done anyway. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    if (!this.lost) await this.keys.drop(this.runId);
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    if ((await this.keys.take(this.runId, this.leaseMs)) !== 0) this.lost = true;
  }
}
