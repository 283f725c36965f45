import { Job, Queue, Worker } from 'bullmq';
import type { QueueName } from '@platform/contracts';
import { QueueJob, isQueueJob } from './queue-jobs.js';
import type { RedisClient } from './redis-connections.js';
import { STALLED_LIMIT_REASON, isStalledLimitFailure } from './stalled-limit.js';
import { StalledTooOftenError } from './stalled-too-often.error.js';

/** How many of a queue's newest failed jobs the start-up sweep looks at. */
export const STALLED_SWEEP_LIMIT = 1000;

/**
 * Records the failure of a job BullMQ failed for stalling too often (its message or notification ends
 * failed) and logs a line when it changed something. It may be called again for a job already settled
 * (every replica sweeps at start-up): it must then change nothing.
 */
export type SettleStalledJob<Q extends QueueName> = (job: QueueJob<Q>, err: StalledTooOftenError) => Promise<void>;

/**
 * BullMQ fails a job that stalled more than maxStalledCount times without calling the processor, so
 * no handler's last-attempt code settles it. This hands such jobs to the app: each one the worker
 * fails (its `failed` event, in the process that failed it), and at start-up those among the queue's
 * newest failed jobs, for a process that stopped before it had settled one.
 */
export class StalledJobSettler<Q extends QueueName> {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly queueName: Q,
    private readonly settle: SettleStalledJob<Q>,
    private readonly logger: { warn(line: string): void; error(line: string): void },
    /** BullMQ's key prefix of the queue (bullPrefix). */
    private readonly prefix = 'bull',
  ) {}

  /** Settles each job `worker` fails for stalling too often. */
  watch(worker: Pick<Worker, 'on'>): void {
    worker.on('failed', (job, err) => {
      if (!job || !isStalledLimitFailure(err)) return;
      this.track(this.run(job));
    });
  }

  /**
   * Settles the jobs failed for stalling among the queue's `limit` newest failed ones; how many it
   * found. Cheap: one range read and one pipelined read of the failure reasons; only matching jobs
   * are loaded. Never throws (a failure is logged; the next start-up sweeps again). close() waits for it.
   */
  sweep(connection: RedisClient, limit = STALLED_SWEEP_LIMIT): Promise<number> {
    const sweep = this.sweepOnce(connection, limit);
    this.track(sweep.then(() => undefined));
    return sweep;
  }

  /** Waits for the settlements (and sweeps) under way. */
  async close(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled(this.running);
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async sweepOnce(connection: RedisClient, limit: number): Promise<number> {
    const queue = new Queue(this.queueName, { connection, prefix: this.prefix });
    try {
      const ids = await queue.getRanges(['failed'], 0, limit - 1);
      if (ids.length === 0) return 0;
      const pipeline = connection.pipeline();
      for (const id of ids) pipeline.hget(queue.toKey(id), 'failedReason');
      const reasons = (await pipeline.exec()) ?? [];
      const stalled = ids.filter((_, i) => reasons[i]?.[1] === STALLED_LIMIT_REASON);
      for (const id of stalled) {
        const job = await queue.getJob(id);
        if (job) await this.run(job);
      }
      return stalled.length;
    } catch (err) {
      this.logger.warn(`the start-up check of ${this.queueName} for jobs failed by stalling did not finish (${(err as Error).message}); the next start-up checks again`);
      return 0;
    } finally {
      await queue.close().catch(() => undefined);
    }
  }

  private async run(job: Job): Promise<void> {
    const err = new StalledTooOftenError(Math.max(1, job.stalledCounter ?? 1));
    if (!isQueueJob(this.queueName, job)) {
      this.logger.error(`${job.name} job ${job.id} ${err.message}; it is no job of ${this.queueName}, so there is nothing to settle`);
      return;
    }
    try {
      await this.settle(job, err);
    } catch (settleErr) {
      this.logger.error(`${job.name} job ${job.id} ${err.message}, but its failure could not be recorded (${(settleErr as Error)?.message ?? settleErr}); the next start-up tries again`);
    }
  }
}
