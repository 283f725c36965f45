import { IntEnv } from '../env-decorators.js';

/** Stalled-job recovery of the BullMQ workers that carry carousel messages and push fan-out. */
export class JobLockEnv {
  /** How long a worker holds a job before another may take it over. */
  @IntEnv({ min: 1000 })
  WORKER_LOCK_MS: number = 30000;

  /**
   * Times a job may stall (its process stopped mid-run) and still run again; one more stall and BullMQ
   * fails it, and the app settles its message or notification as failed (0: the first stall fails it).
   */
  @IntEnv({ min: 0, max: 100 })
  WORKER_MAX_STALLED_COUNT: number = 3;

  /**
   * How often each worker looks through its queue's newest failed jobs for ones failed by stalling
   * whose failure no one recorded (the worker that failed one stopped while Postgres was down), and
   * records it. Also the longest wait between retries of a recording that failed.
   */
  @IntEnv({ min: 100 })
  WORKER_STALLED_SWEEP_MS: number = 60000;

  /**
   * How often each channel worker looks for campaign jobs lost with Redis (a Redis restarted empty, a
   * replica promoted without the last writes) and adds them again (docs/campaigns.md, "No recipient twice").
   */
  @IntEnv({ min: 100 })
  CAMPAIGN_RECOVERY_MS: number = 30000;
}
