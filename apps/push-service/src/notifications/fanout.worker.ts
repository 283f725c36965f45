import { Injectable } from '@nestjs/common';
import { CoreEnv, JobLockEnv, PushEnv } from '@platform/config';
import { PushQueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { BatchHandler } from './batch.handler.js';
import { PlanHandler } from './plan.handler.js';
import { StalledFanoutSettler } from './stalled-fanout.settler.js';

type FanoutJob = QueueJob<typeof PushQueueNames.fanout>;

/**
 * Consumes the push-fanout queue: `plan` jobs queue `batch` jobs; any replica takes any job. When a
 * job's last attempt throws, its handler settles the notification before the job fails for good (a
 * failed plan fails the notification; a failed batch counts its unsettled devices failed), so no
 * notification stays `sending` with devices pending forever. A job that stalls too often is failed by
 * BullMQ, and settled the same way.
 */
@Injectable()
export class FanoutWorker extends WorkerBase<typeof PushQueueNames.fanout> {
  constructor(
    core: CoreEnv,
    env: PushEnv,
    locks: JobLockEnv,
    private readonly plan: PlanHandler,
    private readonly batch: BatchHandler,
    settler: StalledFanoutSettler,
  ) {
    super({
      queue: PushQueueNames.fanout,
      redis: core,
      connectionName: 'push-fanout-worker',
      logName: 'FanoutWorker',
      concurrency: env.PUSH_WORKER_CONCURRENCY,
      lock: { durationMs: locks.WORKER_LOCK_MS, maxStalledCount: locks.WORKER_MAX_STALLED_COUNT },
      settleStalled: (job, err) => settler.settle(job, err),
      stalledSweepMs: locks.WORKER_STALLED_SWEEP_MS,
      giveUp: (job, err) => this.giveUp(job, err),
    });
  }

  protected process(job: FanoutJob, token?: string): Promise<string> {
    switch (job.name) {
      case 'plan':
        return this.plan.handle(job);
      case 'batch':
        return this.batch.handle(job, token);
    }
  }

  private giveUp(job: FanoutJob, err: unknown): Promise<void> {
    switch (job.name) {
      case 'plan':
        return this.plan.giveUp(job, err);
      case 'batch':
        return this.batch.giveUp(job, err);
    }
  }
}
