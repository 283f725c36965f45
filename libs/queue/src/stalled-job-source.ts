import { Job, Queue } from 'bullmq';
import type { RedisClient } from './redis-connections.js';
import { STALLED_LIMIT_REASON } from './stalled-limit.js';

/** Where StalledJobSettler finds the jobs BullMQ failed for stalling, and notes those it settled. */
export interface StalledJobSource {
  /** The jobs among the queue's `limit` newest failed ones that failed for stalling and are not noted settled. */
  unsettled(limit: number): Promise<Job[]>;
  /** Notes that `job`'s failure is recorded, so later sweeps (this replica's and the others') skip it. */
  markSettled(job: Job): Promise<void>;
  close(): Promise<void>;
}

/**
 * The job hash's field that notes a settled stall failure: the job's finishedOn when it was settled, so a
 * job failed again later (retried by hand, say) is settled again.
 */
const SETTLED_FIELD = 'stalledSettledOn';

/** Writes the note only while the job still exists: a job removed meanwhile must not come back as a stray hash. */
const MARK_SETTLED = `local finishedOn = redis.call('hget', KEYS[1], 'finishedOn')
if finishedOn then redis.call('hset', KEYS[1], ARGV[1], finishedOn) return 1 end
return 0`;

/** The queue's failed jobs in Redis: one range read and one pipelined read of three hash fields per sweep. */
export class RedisStalledJobSource implements StalledJobSource {
  private readonly queue: Queue;

  constructor(
    queueName: string,
    private readonly connection: RedisClient,
    /** BullMQ's key prefix of the queue (bullPrefix). */
    prefix: string,
  ) {
    this.queue = new Queue(queueName, { connection, prefix });
    // The worker sharing this connection logs Redis errors; an 'error' event without a listener would throw.
    this.queue.on('error', () => undefined);
  }

  async unsettled(limit: number): Promise<Job[]> {
    const ids = await this.queue.getRanges(['failed'], 0, limit - 1);
    if (ids.length === 0) return [];
    const pipeline = this.connection.pipeline();
    for (const id of ids) pipeline.hmget(this.queue.toKey(id), 'failedReason', 'finishedOn', SETTLED_FIELD);
    const fields = (await pipeline.exec()) ?? [];
    const jobs: Job[] = [];
    for (const [i, id] of ids.entries()) {
      const [reason, finishedOn, settledOn] = (fields[i]?.[1] as Array<string | null> | undefined) ?? [];
      if (reason !== STALLED_LIMIT_REASON || (settledOn != null && settledOn === finishedOn)) continue;
      const job = await this.queue.getJob(id);
      if (job) jobs.push(job);
    }
    return jobs;
  }

  async markSettled(job: Job): Promise<void> {
    if (job.id === undefined) return;
    await this.connection.eval(MARK_SETTLED, 1, this.queue.toKey(job.id), SETTLED_FIELD);
  }

  close(): Promise<void> {
    return this.queue.close().catch(() => undefined);
  }
}
