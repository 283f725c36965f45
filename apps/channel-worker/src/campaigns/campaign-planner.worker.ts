import { Injectable } from '@nestjs/common';
import { CoreEnv, JobLockEnv } from '@platform/config';
import { CampaignQueueNames, campaignPlanJobId } from '@platform/contracts';
import { CampaignRepository } from '@platform/database';
import { CampaignPlanQueue, QueueJob, WorkerBase } from '@platform/queue';
import { CampaignPlanner } from './campaign-planner.js';

/**
 * Runs campaign planners (one job per running campaign); a killed worker's planner is taken over as a
 * stalled job. At start-up it re-adds the planner of every scheduled or running campaign under its own
 * job id (BullMQ ignores an id it has): a planner job lost with a Redis that failed over comes back.
 */
@Injectable()
export class CampaignPlannerWorker extends WorkerBase<typeof CampaignQueueNames.campaigns> {
  constructor(
    core: CoreEnv,
    locks: JobLockEnv,
    private readonly planner: CampaignPlanner,
    private readonly campaigns: CampaignRepository,
    private readonly planners: CampaignPlanQueue,
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

  override onApplicationBootstrap() {
    super.onApplicationBootstrap();
    void this.restorePlanners().catch((err: unknown) => this.logger.warn(`campaign planners not checked at start-up: ${(err as Error).message}`));
  }

  protected process(job: QueueJob<typeof CampaignQueueNames.campaigns>, token?: string): Promise<string> {
    return this.planner.round(job, token);
  }

  private async restorePlanners(): Promise<void> {
    const active = await this.campaigns.active();
    if (active.length === 0) return;
    await this.planners.addBulk(active.map(({ id, plannerId }) => ({ name: 'plan' as const, data: { campaignId: id, plannerId }, opts: { jobId: campaignPlanJobId(id, plannerId) } })));
  }
}
