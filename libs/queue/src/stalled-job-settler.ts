import { Job, Worker } from 'bullmq';
import type { QueueName } from '@platform/contracts';
import { QueueJob, isQueueJob } from './queue-jobs.js';
import { isStalledLimitFailure } from './stalled-limit.js';
import type { StalledJobSource } from './stalled-job-source.js';
import { StalledTooOftenError } from './stalled-too-often.error.js';

/** How many of a queue's newest failed jobs a sweep looks at. */
export const STALLED_SWEEP_LIMIT = 1000;

/**
 * Records the failure of a job BullMQ failed for stalling too often (its message or notification ends
 * failed) and logs a line when it changed something. It may be called again for a job already settled
 * (every replica sweeps): it must then change nothing.
 */
export type SettleStalledJob<Q extends QueueName> = (job: QueueJob<Q>, err: StalledTooOftenError) => Promise<void>;

export interface StalledJobSettlerTiming {
  /** How often the queue is swept again after the start-up sweep. */
  sweepEveryMs: number;
  /** The wait before the first retry of a settlement that failed; it doubles per failed retry… */
  retryFirstMs: number;
  /** …up to this. */
  retryMaxMs: number;
}

export const DEFAULT_STALLED_SETTLER_TIMING: StalledJobSettlerTiming = { sweepEveryMs: 60_000, retryFirstMs: 1_000, retryMaxMs: 60_000 };

/**
 * BullMQ fails a job that stalled more than maxStalledCount times without calling the processor, so
 * no handler's last-attempt code settles it. This hands such jobs to the app: each one the worker
 * fails (its `failed` event, in the process that failed it), and those among the queue's newest failed
 * jobs at start-up and every `sweepEveryMs`, for a replica that stopped before it settled one.
 *
 * A settlement that throws (Postgres down or frozen) is tried again, the wait doubling up to
 * `retryMaxMs`, until it succeeds or this process shuts down; the sweeps of every replica cover a
 * process that stopped meanwhile. A settled job is noted on the job in Redis, so sweeps skip it.
 */
export class StalledJobSettler<Q extends QueueName> {
  private readonly running = new Set<Promise<void>>();
  /** Jobs whose settlement is under way or waits for its retry here: sweeps leave them to it. */
  private readonly retries = new Map<string, NodeJS.Timeout | undefined>();
  private readonly timing: StalledJobSettlerTiming;
  private source?: StalledJobSource;
  private sweepTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly queueName: Q,
    private readonly settle: SettleStalledJob<Q>,
    private readonly logger: { log(line: string): void; warn(line: string): void; error(line: string): void },
    timing: Partial<StalledJobSettlerTiming> = {},
  ) {
    this.timing = { ...DEFAULT_STALLED_SETTLER_TIMING, retryMaxMs: timing.sweepEveryMs ?? DEFAULT_STALLED_SETTLER_TIMING.retryMaxMs, ...timing };
  }

  /** Settles each job `worker` fails for stalling too often. */
  watch(worker: Pick<Worker, 'on'>): void {
    worker.on('failed', (job, err) => {
      if (!job || !isStalledLimitFailure(err)) return;
      this.track(this.run(job, 1).then(() => undefined));
    });
  }

  /** Sweeps `source` now (the start-up sweep) and every `sweepEveryMs` until close(); resolves with the first sweep's count. */
  start(source: StalledJobSource, limit = STALLED_SWEEP_LIMIT): Promise<number> {
    this.source = source;
    const first = this.sweep(limit);
    void first.then(() => this.scheduleSweep(limit));
    return first;
  }

  /**
   * Settles the jobs failed for stalling, not yet settled, among the queue's `limit` newest failed
   * ones; how many it found. Cheap when there are none: one range read and one pipelined read of each
   * job's failure fields. Never throws (a failure is logged; the next sweep tries again). close() waits for it.
   */
  sweep(limit = STALLED_SWEEP_LIMIT): Promise<number> {
    const sweep = this.sweepOnce(limit);
    this.track(sweep.then(() => undefined));
    return sweep;
  }

  /** Stops the sweeps and the retries waiting, and waits for the settlements (and sweep) under way. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweepTimer);
    for (const [id, timer] of this.retries) {
      if (!timer) continue;
      clearTimeout(timer);
      this.retries.delete(id);
      this.logger.warn(`job ${id} of ${this.queueName}: its failure is still not recorded; another worker's sweep or the next start-up records it`);
    }
    while (this.running.size > 0) await Promise.allSettled(this.running);
    await this.source?.close();
  }

  private scheduleSweep(limit: number): void {
    if (this.closed) return;
    this.sweepTimer = setTimeout(() => void this.sweep(limit).then(() => this.scheduleSweep(limit)), this.timing.sweepEveryMs);
    this.sweepTimer.unref();
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async sweepOnce(limit: number): Promise<number> {
    if (!this.source || this.closed) return 0;
    let found: Job[];
    try {
      found = (await this.source.unsettled(limit)).filter((job) => !this.retries.has(String(job.id)));
    } catch (err) {
      this.logger.warn(`the check of ${this.queueName} for jobs failed by stalling did not finish (${(err as Error).message}); it runs again in ${seconds(this.timing.sweepEveryMs)}`);
      return 0;
    }
    if (found.length > 0) this.logger.warn(`${found.length} job${found.length === 1 ? '' : 's'} of ${this.queueName} failed by stalling without their failure recorded; recording it`);
    for (const job of found) {
      // A settlement that fails here most likely fails for the others too (Postgres down): its retry
      // goes on, and the next sweep takes the rest.
      if (this.closed || !(await this.run(job, 1))) break;
    }
    return found.length;
  }

  /** One try at settling `job`; on failure its retry is scheduled. True when its failure is recorded. */
  private async run(job: Job, tries: number): Promise<boolean> {
    const err = new StalledTooOftenError(Math.max(1, job.stalledCounter ?? 1));
    if (!isQueueJob(this.queueName, job)) {
      this.logger.error(`${job.name} job ${job.id} ${err.message}; it is no job of ${this.queueName}, so there is nothing to settle`);
      return true;
    }
    const id = String(job.id);
    this.retries.set(id, undefined);
    try {
      await this.settle(job, err);
    } catch (settleErr) {
      this.retryLater(job, err, settleErr, tries);
      return false;
    }
    this.retries.delete(id);
    if (tries > 1) this.logger.log(`${job.name} job ${job.id}: the failure of the job (it ${err.message}) is recorded, on try ${tries}`);
    // Without the note a later sweep settles it again, which changes nothing.
    await this.source?.markSettled(job).catch(() => undefined);
    return true;
  }

  private retryLater(job: QueueJob<Q>, err: StalledTooOftenError, settleErr: unknown, tries: number): void {
    const id = String(job.id);
    const why = `${job.name} job ${job.id} ${err.message}, but its failure could not be recorded (${(settleErr as Error)?.message ?? settleErr})`;
    if (this.closed) {
      this.retries.delete(id);
      this.logger.error(`${why}; another worker's sweep or the next start-up records it`);
      return;
    }
    const waitMs = Math.min(this.timing.retryMaxMs, this.timing.retryFirstMs * 2 ** (tries - 1));
    // Every failed try is not worth a line during a long outage: the first, then at tries 2, 4, 8, …
    if (tries === 1) this.logger.error(`${why}; it is tried again in ${seconds(waitMs)}, then less often until it is recorded`);
    else if ((tries & (tries - 1)) === 0) this.logger.warn(`${why} on try ${tries}; it is tried again in ${seconds(waitMs)}`);
    const timer = setTimeout(() => {
      this.retries.set(id, undefined);
      this.track(this.run(job, tries + 1).then(() => undefined));
    }, waitMs);
    timer.unref();
    this.retries.set(id, timer);
  }
}

function seconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s} s`;
}
