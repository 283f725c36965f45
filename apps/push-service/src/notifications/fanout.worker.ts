import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { CoreEnv, JobLockEnv, PushEnv } from '@platform/config';
import { PushBatchJob, PushPlanJob, PushQueueNames } from '@platform/contracts';
import { StalledJobSettler, createWorkerRedis, isStalledLimitFailure } from '@platform/queue';
import { BatchHandler } from './batch.handler.js';
import { isFinalAttempt } from './fanout-job-options.js';
import { PlanHandler } from './plan.handler.js';
import { StalledFanoutSettler } from './stalled-fanout.settler.js';

/**
 * Consumes the push-fanout queue: `plan` jobs queue `batch` jobs; any replica takes any job. A job that
 * stalls too often is failed by BullMQ, and settled like one whose last attempt threw.
 */
@Injectable()
export class FanoutWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FanoutWorker');
  private worker?: Worker;
  private connection?: Redis;
  private readonly stalled: StalledJobSettler<unknown>;

  constructor(
    private readonly env: PushEnv,
    private readonly core: CoreEnv,
    private readonly locks: JobLockEnv,
    private readonly plan: PlanHandler,
    private readonly batch: BatchHandler,
    settler: StalledFanoutSettler,
  ) {
    this.stalled = new StalledJobSettler((job, err) => settler.settle(job, err), this.logger);
  }

  onApplicationBootstrap() {
    this.worker = new Worker(PushQueueNames.fanout, (job) => this.route(job), {
      connection: (this.connection = createWorkerRedis(this.core.REDIS_URL, 'push-fanout-worker')),
      concurrency: this.env.PUSH_WORKER_CONCURRENCY,
      lockDuration: this.locks.WORKER_LOCK_MS,
      stalledInterval: Math.max(500, Math.floor(this.locks.WORKER_LOCK_MS / 2)),
      maxStalledCount: this.locks.WORKER_MAX_STALLED_COUNT,
    });
    this.worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
    this.worker.on('failed', (job, err) => {
      if (!job || isStalledLimitFailure(err)) return; // logged when settled
      if (job.attemptsMade >= (job.opts.attempts ?? 1)) this.logger.error(`${job.name} job ${job.id} failed for good after ${job.attemptsMade} runs: ${err.message}`);
      else this.logger.warn(`${job.name} job ${job.id} run ${job.attemptsMade} failed: ${err.message}`);
    });
    this.worker.on('stalled', (jobId) => this.logger.warn(`job ${jobId} stalled (its process stopped); it will run again unless it stalled too often`));
    this.stalled.watch(this.worker);
    void this.stalled.sweep(PushQueueNames.fanout, this.connection);
    this.logger.log(`consuming ${PushQueueNames.fanout} with concurrency ${this.env.PUSH_WORKER_CONCURRENCY}`);
  }

  async onApplicationShutdown() {
    await this.worker?.close();
    await this.stalled.close();
    await this.connection?.quit().catch(() => this.connection?.disconnect()); // BullMQ leaves a passed-in connection open
  }

  private route(job: Job): Promise<string> {
    if (job.name === 'plan') return runFanoutJob(job as Job<PushPlanJob>, this.plan, this.logger);
    if (job.name === 'batch') return runFanoutJob(job as Job<PushBatchJob>, this.batch, this.logger);
    throw new Error(`unknown job ${job.name}`);
  }
}

/** What the worker needs of a job handler. */
export interface FanoutJobHandler<T> {
  handle(job: Job<T>): Promise<string>;
  /** Called once, when the job's last attempt threw: settles the notification so it cannot stay pending. */
  giveUp(job: Job<T>, err: unknown): Promise<void>;
}

/**
 * Runs one attempt of a job. When the last attempt throws, the handler settles the notification
 * before the job fails for good (a failed plan fails the notification; a failed batch counts its
 * unsettled devices failed), so no notification stays `sending` with devices pending forever.
 */
export async function runFanoutJob<T>(job: Job<T>, handler: FanoutJobHandler<T>, logger: Pick<Logger, 'error'>): Promise<string> {
  try {
    return await handler.handle(job);
  } catch (err) {
    if (isFinalAttempt(job)) {
      await handler.giveUp(job, err).catch((giveUpErr: unknown) =>
        logger.error(`${job.name} job ${job.id}: its final failure could not be recorded (${(giveUpErr as Error)?.message ?? giveUpErr}); its notification may stay unfinished`),
      );
    }
    throw err;
  }
}
