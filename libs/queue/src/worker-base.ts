import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DelayedError, Job, RateLimitError, UnrecoverableError, WaitingChildrenError, WaitingError, Worker, WorkerOptions } from 'bullmq';
import type { QueueName } from '@platform/contracts';
import { isFinalAttempt } from './final-attempt.js';
import { QueueJob, isQueueJob } from './queue-jobs.js';
import { queueWorkerLiveness } from './queue-worker-liveness.js';
import { RedisClient, RedisTarget, bullPrefix, createWorkerRedis } from './redis-connections.js';
import { SettleStalledJob, StalledJobSettler } from './stalled-job-settler.js';
import { RedisStalledJobSource, StalledJobSource } from './stalled-job-source.js';
import { isStalledLimitFailure } from './stalled-limit.js';

/** What an app's worker says about itself; the rest of running a BullMQ worker is WorkerBase's. */
export interface WorkerBaseOptions<Q extends QueueName> {
  queue: Q;
  /** The platform's Redis (CoreEnv): one server or a cluster, and the key prefix. */
  redis: RedisTarget;
  /** Redis CLIENT SETNAME of the worker's connection. */
  connectionName: string;
  /** Logger context, e.g. the subclass's name. */
  logName: string;
  concurrency: number;
  /** Job lock and stalled-job check; without it BullMQ's defaults apply. */
  lock?: { durationMs: number; maxStalledCount: number };
  /**
   * Settles a job BullMQ failed for stalling too often (the processor never ran to record it): each
   * one this worker fails, and those among the queue's newest failed jobs at start-up and every
   * `stalledSweepMs`; a settlement that throws is tried again while the process lives.
   */
  settleStalled?: SettleStalledJob<Q>;
  /** How often the queue is swept for jobs failed by stalling whose failure no one recorded (StalledJobSettler's default without it). */
  stalledSweepMs?: number;
  /**
   * Called once when a run throws and the job will not run again (its final attempt, or an
   * UnrecoverableError), before it fails for good: records the failure where users see it.
   */
  giveUp?: (job: QueueJob<Q>, err: unknown) => Promise<void>;
}

/** What WorkerBase uses of a BullMQ Worker (tests hand it a stand-in). */
type BullWorker = Pick<Worker, 'on' | 'close'> & Partial<Pick<Worker, 'isRunning'>>;

/** Errors BullMQ uses to move a job elsewhere: not failures, so never given up on. */
const NOT_FAILURES = [DelayedError, WaitingChildrenError, WaitingError, RateLimitError];

/**
 * One BullMQ worker with the settings, logging, stalled-job settling and shutdown every app shares.
 * A subclass passes its options and implements `process`; `job.name` narrows `job.data` there.
 *
 * Shutdown, in Nest's application-shutdown step: the worker closes (its running jobs finish), then the
 * stalled-job settlements and sweep under way finish (waiting retries and sweeps are dropped), then the
 * Redis connection quits.
 * PrismaService ends its pool in a later step of the same phase, so all of these can still use it.
 */
export abstract class WorkerBase<Q extends QueueName> implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  private worker?: BullWorker;
  private unlist?: () => void;
  private connection?: RedisClient;
  private readonly stalled?: StalledJobSettler<Q>;
  /** Ids of the jobs this process runs now. */
  private readonly running = new Set<string>();

  protected constructor(private readonly options: WorkerBaseOptions<Q>) {
    this.logger = new Logger(options.logName);
    if (options.settleStalled) {
      this.stalled = new StalledJobSettler(options.queue, options.settleStalled, this.logger, options.stalledSweepMs ? { sweepEveryMs: options.stalledSweepMs } : {});
    }
  }

  /** One run of a job; throwing makes BullMQ retry it while attempts remain. */
  protected abstract process(job: QueueJob<Q>, token?: string): Promise<unknown>;

  onApplicationBootstrap() {
    const { queue, concurrency, lock } = this.options;
    const connection = (this.connection = this.createConnection());
    const worker = (this.worker = this.createWorker((job, token) => this.run(job, token), {
      connection,
      prefix: bullPrefix(this.options.redis, queue),
      concurrency,
      ...(lock && {
        lockDuration: lock.durationMs,
        stalledInterval: Math.max(500, Math.floor(lock.durationMs / 2)),
        maxStalledCount: lock.maxStalledCount,
      }),
    }));
    // Until this process shuts it down, a worker whose loop ended (closed, or failed for good) makes /health say so.
    this.unlist = queueWorkerLiveness.add(queue, () => worker.isRunning?.() ?? true);
    worker.on('closed', () => {
      if (this.worker === worker) this.logger.error(`the ${queue} worker closed: this process takes no more of its jobs`);
    });
    worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
    worker.on('failed', (job, err) => this.logFailure(job, err));
    worker.on('stalled', (jobId) => this.logger.warn(`job ${jobId} stalled (its process stopped); it will run again unless it stalled too often`));
    if (this.stalled) {
      this.stalled.watch(worker);
      void this.stalled.start(this.stalledJobSource(connection));
    }
    this.logger.log(`consuming ${queue} with concurrency ${concurrency}`);
  }

  async onApplicationShutdown() {
    const [worker, connection] = [this.worker, this.connection];
    this.worker = this.connection = undefined;
    this.unlist?.();
    await worker?.close();
    await this.stalled?.close();
    await connection?.quit().catch(() => connection.disconnect()); // BullMQ leaves a passed-in connection open
  }

  /** The worker's own Redis connection (blocking commands; retried forever). */
  protected createConnection(): RedisClient {
    return createWorkerRedis(this.options.redis, this.options.connectionName);
  }

  /** Where the stalled-job sweeps read the queue's failed jobs (tests hand in a stand-in). */
  protected stalledJobSource(connection: RedisClient): StalledJobSource {
    return new RedisStalledJobSource(this.options.queue, connection, bullPrefix(this.options.redis, this.options.queue));
  }

  protected createWorker(processor: (job: Job, token?: string) => Promise<unknown>, settings: WorkerOptions): BullWorker {
    return new Worker(this.options.queue, processor, settings);
  }

  private async run(job: Job, token?: string): Promise<unknown> {
    if (!isQueueJob(this.options.queue, job)) throw new UnrecoverableError(`${this.options.queue} has no job named ${job.name}`);
    const id = job.id;
    if (id !== undefined && token && this.running.has(id)) {
      // A run of this job is still under way here: its lock lapsed (a stalled event loop) and BullMQ gave the
      // job to this process again. BullMQ renews locks per job id, so when the earlier run ends it stops
      // renewing this run's lock too: this run would stall, be taken again while running, and so on for
      // good (the job never finishing, its queue's other jobs starved behind it). The job waits instead,
      // the lock this run holds given up, until the earlier run has ended.
      this.logger.warn(`${job.name} job ${id} is still running in this process (its lock lapsed); it runs again in ${this.rerunWaitMs} ms`);
      await job.moveToDelayed(Date.now() + this.rerunWaitMs, token);
      throw new DelayedError();
    }
    if (id !== undefined) this.running.add(id);
    try {
      return await this.process(job, token);
    } catch (err) {
      const { giveUp } = this.options;
      const final = err instanceof UnrecoverableError || isFinalAttempt(job);
      if (giveUp && final && !NOT_FAILURES.some((type) => err instanceof type)) {
        await giveUp(job, err).catch((giveUpErr: unknown) => this.logger.error(`${job.name} job ${job.id}: its final failure could not be recorded (${(giveUpErr as Error)?.message ?? giveUpErr})`));
      }
      throw err;
    } finally {
      if (id !== undefined) this.running.delete(id);
    }
  }

  /** How long a job taken again while its earlier run goes on waits: one lock's time, the job's lock or BullMQ's default. */
  private get rerunWaitMs(): number {
    return this.options.lock?.durationMs ?? 30_000;
  }

  private logFailure(job: Job | undefined, err: Error): void {
    if (!job || isStalledLimitFailure(err)) return; // a stalled-too-often job is logged when settled
    const runs = `${job.attemptsMade} run${job.attemptsMade === 1 ? '' : 's'}`;
    if (err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1)) {
      this.logger.error(`${job.name} job ${job.id} failed for good after ${runs}: ${err.message}`);
    } else {
      this.logger.warn(`${job.name} job ${job.id} run ${job.attemptsMade} failed: ${err.message}; it will retry`);
    }
  }
}
