import type { BulkJobOptions, Job, JobsOptions, Queue } from 'bullmq';
import { QueueJobNames, type JobData, type JobName, type QueueName } from '@platform/contracts';

/**
 * A job of queue Q: one Job type per job name, so `switch (job.name)` narrows `job.data` to that
 * name's payload (BullMQ's own `Job<Data, Result, Name>` does not tie a name to its data).
 */
export type QueueJob<Q extends QueueName, R = unknown> = { [N in JobName<Q>]: Job<JobData<Q, N>, R, N> }[JobName<Q>];

/** True when `job` carries one of queue Q's job names (contracts' QueueJobNames), so its data is that name's payload. */
export function isQueueJob<Q extends QueueName>(queue: Q, job: Job): job is QueueJob<Q> {
  return (QueueJobNames[queue] as readonly string[]).includes(job.name);
}

/**
 * The producer side of queue Q (what a parameter typed by Q's token class, e.g. `CarouselDispatchQueue`, is given): `add` takes only Q's job names,
 * each with its own payload, and `getJob` answers Q's job types.
 */
export interface ProducerQueue<Q extends QueueName> extends Omit<Queue, 'add' | 'addBulk' | 'getJob'> {
  add<N extends JobName<Q>>(name: N, data: JobData<Q, N>, opts?: JobsOptions): Promise<Job<JobData<Q, N>, unknown, N>>;
  addBulk<N extends JobName<Q>>(jobs: Array<{ name: N; data: JobData<Q, N>; opts?: BulkJobOptions }>): Promise<Array<Job<JobData<Q, N>, unknown, N>>>;
  getJob(jobId: string): Promise<QueueJob<Q> | undefined>;
}
