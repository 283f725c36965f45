import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { PlatformEnv } from '@platform/config';
import { PushBatchJob, PushPlanJob, PushQueueNames } from '@platform/contracts';
import { createWorkerRedis } from '@platform/queue';
import { BatchHandler } from './batch.handler.js';
import { PlanHandler } from './plan.handler.js';

/** Consumes the push-fanout queue: `plan` jobs queue `batch` jobs; any replica takes any job. */
@Injectable()
export class FanoutWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FanoutWorker');
  private worker?: Worker;
  private connection?: Redis;

  constructor(
    private readonly env: PlatformEnv,
    private readonly plan: PlanHandler,
    private readonly batch: BatchHandler,
  ) {}

  onApplicationBootstrap() {
    this.worker = new Worker(PushQueueNames.fanout, (job) => this.route(job), {
      connection: (this.connection = createWorkerRedis(this.env.REDIS_URL, 'push-fanout-worker')),
      concurrency: this.env.PUSH_WORKER_CONCURRENCY,
      lockDuration: this.env.WORKER_LOCK_MS,
      stalledInterval: Math.max(500, Math.floor(this.env.WORKER_LOCK_MS / 2)),
      maxStalledCount: 3,
    });
    this.worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
    this.worker.on('failed', (job, err) => job && this.logger.warn(`${job.name} job ${job.id} run ${job.attemptsMade} failed: ${err.message}`));
    this.worker.on('stalled', (jobId) => this.logger.warn(`job ${jobId} stalled (its process stopped); it will run again`));
    this.logger.log(`consuming ${PushQueueNames.fanout} with concurrency ${this.env.PUSH_WORKER_CONCURRENCY}`);
  }

  async onApplicationShutdown() {
    await this.worker?.close();
    await this.connection?.quit().catch(() => this.connection?.disconnect()); // BullMQ leaves a passed-in connection open
  }

  private route(job: Job): Promise<string> {
    if (job.name === 'plan') return this.plan.handle(job as Job<PushPlanJob>);
    if (job.name === 'batch') return this.batch.handle(job as Job<PushBatchJob>);
    throw new Error(`unknown job ${job.name}`);
  }
}
