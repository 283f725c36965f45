import { performance } from 'node:perf_hooks';
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

/** What must be left of a lease for one more request to FCM to go: the request's timeout and the time to record its outcome. */
export function requestWindowMs(fcmTimeoutMs: number): number {
  return fcmTimeoutMs + RECORD_MARGIN_MS;
}

/**
 * The Redis side of a run's lease: renew it (0 = held by `runId` for `leaseMs` more; else it is lost:
 * another run took the batch since), or drop it.
 */
export interface LeaseKeys {
  renew(runId: string, leaseMs: number): Promise<number>;
  drop(runId: string): Promise<void>;
}

/**
 * One run's hold on its batch. Renewed on a timer while the run lasts and before each chunk goes to
 * FCM (`ensureHeld`); once another run (or giving up on the batch) has taken it, it is lost for good and
 * `ensureHeld` throws BatchTakenOverError.
 *
 * Nobody else can take a lease before it runs out, so a renewal that Redis answered "yours" proves the
 * run holds the batch until `leaseMs` after the renewal was sent: `ensureHeldFor` relies on that and
 * asks Redis only when less than it needs is left (after the process was stopped, or the timer's
 * renewals failed). The time is the monotonic clock's, which goes on while the process is stopped.
 */
export class BatchLease {
  private lost = false;
  /** Monotonic time until which the lease is surely this run's (0: not known to be held). */
  private heldUntil = 0;
  /** A renewal asked for by `confirm`, while it runs. */
  private confirming?: Promise<void>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly keys: LeaseKeys,
    private readonly runId: string,
    private readonly leaseMs: number,
    renewEveryMs: number,
    private readonly onRenewError: (err: Error) => void,
    /** Taken at `now`: the lease is held until now + leaseMs. */
    takenAt?: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (takenAt !== undefined) this.heldUntil = takenAt + leaseMs;
    this.timer = setInterval(() => void this.renew().catch(this.onRenewError), renewEveryMs);
    this.timer.unref();
  }

  /** Renews the lease; throws BatchTakenOverError when another run holds the batch now. */
  async ensureHeld(): Promise<void> {
    await this.renew();
    this.throwIfLost();
  }

  /**
   * Resolves when the lease is this run's for at least `ms` more: at once (no Redis) when the last
   * renewal proves it, else after renewing it. Throws BatchTakenOverError when another run holds the batch.
   */
  async ensureHeldFor(ms: number): Promise<void> {
    this.throwIfLost();
    if (this.heldUntil - this.now() >= ms) return;
    await this.ensureHeld();
  }

  /** True once another run (or giving up on the batch) took the lease: this run sends nothing more. */
  isLost(): boolean {
    return this.lost;
  }

  /** True when the last renewal proves the lease this run's for `ms` more (no Redis). */
  provenFor(ms: number): boolean {
    return !this.lost && this.heldUntil - this.now() >= ms;
  }

  /**
   * Starts a renewal unless one asked for this way still runs (not awaited: `provenFor` and `isLost`
   * tell how it went). A failure is the timer's to report: callers may ask again every few ms.
   */
  confirm(): void {
    this.confirming ??= this.renew()
      .catch(() => undefined)
      .finally(() => (this.confirming = undefined));
  }

  /** The error a run taken over ends with. */
  takenOverError(): BatchTakenOverError {
    return new BatchTakenOverError(`another run took the batch over (this run's lease of ${this.leaseMs} ms ran out while its process was stopped)`);
  }

  /** Ends the lease (only if this run still holds it); not awaited by callers that are done anyway. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    if (!this.lost) await this.keys.drop(this.runId);
  }

  private throwIfLost(): void {
    if (this.lost) throw this.takenOverError();
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    const sentAt = this.now();
    if ((await this.keys.renew(this.runId, this.leaseMs)) !== 0) {
      this.lost = true;
      this.heldUntil = 0;
    } else if (!this.lost) {
      this.heldUntil = Math.max(this.heldUntil, sentAt + this.leaseMs);
    }
  }
}
