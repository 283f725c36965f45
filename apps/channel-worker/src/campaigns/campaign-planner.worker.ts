import { Injectable } from '@nestjs/common';
import { CoreEnv, JobLockEnv } from '@platform/config';
import { CampaignQueueNames } from '@platform/contracts';
import { QueueJob, WorkerBase } from '@platform/queue';
import { CampaignPlanner } from './campaign-planner.js';

/**
 * Runs campaign planners (one job per running campaign); a killed worker's planner is taken over as a
 * stalled job. A planner job lost with Redis is added again by CampaignRecovery.
 */
@Injectable()
export class CampaignPlannerWorker extends WorkerBase<typeof CampaignQueueNames.campaigns> {
  constructor(
    core: CoreEnv,
    locks: JobLockEnv,
    private readonly planner: CampaignPlanner,
  ) {
    super({
      queue: CampaignQueueNames.campaigns,
      redis: core,
      connectionName: 'channel-worker-campaigns',
      logName: 'CampaignPlannerWorker',
      concurrency: 8,
      // A planner round is idempotent: a stalled one is simply run again, however often.
      lock: { durationMs: locks.WORKER_LOCK_MS, maxStalledCount: 1000 },
    });
  }

  protected process(job: QueueJob<typeof CampaignQueueNames.campaigns>, token?: string): Promise<string> {
    return this.planner.round(job, token);
  }
}
