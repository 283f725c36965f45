import { Injectable } from '@nestjs/common';
import { CoreEnv, JobLockEnv, WorkerEnv } from '@platform/config';
import { QueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { CarouselDispatchHandler } from './carousel-dispatch.handler.js';
import { StalledMessageSettler } from './stalled-message.settler.js';

/**
 * Runs the BullMQ worker of the carousel-dispatch queue; jobs of a killed worker are recovered as
 * stalled. A job that stalls too often is failed by BullMQ, and its message is failed with it.
 */
@Injectable()
export class CarouselDispatchWorker extends WorkerBase<typeof QueueNames.carouselDispatch> {
  constructor(
    core: CoreEnv,
    env: WorkerEnv,
    locks: JobLockEnv,
    private readonly handler: CarouselDispatchHandler,
    settler: StalledMessageSettler,
  ) {
    super({
      queue: QueueNames.carouselDispatch,
      redis: core,
      connectionName: 'channel-worker',
      logName: 'CarouselDispatchWorker',
      concurrency: env.WORKER_CONCURRENCY,
      lock: { durationMs: locks.WORKER_LOCK_MS, maxStalledCount: locks.WORKER_MAX_STALLED_COUNT },
      settleStalled: (job, err) => settler.settle(job, err),
      stalledSweepMs: locks.WORKER_STALLED_SWEEP_MS,
    });
  }

  protected process(job: QueueJob<typeof QueueNames.carouselDispatch>, token?: string): Promise<string> {
    return this.handler.handle(job, token);
  }
}
