import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'bullmq';
import { CoreEnv, JobLockEnv, WorkerEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { StalledJobSettler, createWorkerRedis } from '@platform/queue';
import { CarouselDispatchHandler } from './carousel-dispatch.handler.js';
import { StalledMessageSettler } from './stalled-message.settler.js';

/**
 * Runs the BullMQ worker of the carousel-dispatch queue; jobs of a killed worker are recovered as
 * stalled. A job that stalls too often is failed by BullMQ, and its message is failed with it.
 */
@Injectable()
export class CarouselDispatchWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CarouselDispatchWorker');
  private worker?: Worker<CarouselDispatchJob>;
  private connection?: ReturnType<typeof createWorkerRedis>;
  private readonly stalled: StalledJobSettler<CarouselDispatchJob>;

  constructor(
    private readonly env: WorkerEnv,
    private readonly core: CoreEnv,
    private readonly locks: JobLockEnv,
    private readonly handler: CarouselDispatchHandler,
    settler: StalledMessageSettler,
  ) {
    this.stalled = new StalledJobSettler((job, err) => settler.settle(job, err), this.logger);
  }

  onApplicationBootstrap() {
    this.worker = new Worker<CarouselDispatchJob>(QueueNames.carouselDispatch, (job, token) => this.handler.handle(job, token), {
      connection: (this.connection = createWorkerRedis(this.core.REDIS_URL, 'channel-worker')),
      concurrency: this.env.WORKER_CONCURRENCY,
      lockDuration: this.locks.WORKER_LOCK_MS,
      stalledInterval: Math.max(500, Math.floor(this.locks.WORKER_LOCK_MS / 2)),
      maxStalledCount: this.locks.WORKER_MAX_STALLED_COUNT,
    });
    this.worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
    this.worker.on('stalled', (jobId) => this.logger.warn(`job ${jobId} stalled (its worker stopped); it will run again unless it stalled too often`));
    this.stalled.watch(this.worker);
    void this.stalled.sweep(QueueNames.carouselDispatch, this.connection);
    this.logger.log(`consuming ${QueueNames.carouselDispatch} with concurrency ${this.env.WORKER_CONCURRENCY}`);
  }

  async onApplicationShutdown() {
    await this.worker?.close();
    await this.stalled.close();
    await this.connection?.quit().catch(() => this.connection?.disconnect()); // BullMQ leaves a passed-in connection open
  }
}
