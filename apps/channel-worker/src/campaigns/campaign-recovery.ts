import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JobLockEnv, WhatsAppEnv } from '@platform/config';
import { campaignPlanJobId } from '@platform/contracts';
import { CampaignRepository, CampaignRow, UnsettledRecipient } from '@platform/database';
import { CampaignPlanQueue, CarouselDispatchQueue } from '@platform/queue';
import { CampaignPlanner } from './campaign-planner.js';

/** Recipients a sweep looks at, at most. */
const SWEEP_LIMIT = 5000;
/** A recipient admitted less than this long ago is left alone (its job was added before its row committed; this only spares needless look-ups). */
const GRACE_MS = 5000;
/** Job states asked of Redis at once. */
const STATE_BATCH = 200;

/**
 * Puts back what a Redis that lost data took with it (a replica promoted without the last writes, a Redis
 * restarted empty): at start-up and every CAMPAIGN_RECOVERY_MS, each scheduled or running campaign's
 * planner job, and the dispatch job of every admitted recipient whose message is not settled and whose
 * job is no longer in BullMQ. Re-adding is idempotent (the job ids are the planner's and the message's
 * ids; BullMQ ignores an id it has), and the at-most-once claim keeps a message whose send may have begun
 * from going again (it fails as `outcome_unknown`). Every worker replica sweeps; they re-add the same ids.
 */
@Injectable()
export class CampaignRecovery implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CampaignRecovery');
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;
  /** A message left `processing` this long has no live attempt (a send's answer has come back or timed out, and its job lock expired). */
  private readonly stuckMs: number;

  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly planner: CampaignPlanner,
    private readonly planners: CampaignPlanQueue,
    private readonly dispatch: CarouselDispatchQueue,
    private readonly locks: JobLockEnv,
    whatsapp: WhatsAppEnv,
  ) {
    this.stuckMs = whatsapp.WHATSAPP_TIMEOUT_MS + 2 * locks.WORKER_LOCK_MS;
  }

  onApplicationBootstrap(): void {
    const tick = () => {
      this.sweeping = this.sweep()
        .catch((err: unknown) => this.logger.warn(`campaign recovery sweep failed: ${(err as Error).message}`))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.locks.CAMPAIGN_RECOVERY_MS).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /** One sweep: planners, then lost dispatch jobs; how many dispatch jobs it re-added. */
  async sweep(): Promise<number> {
    const active = await this.campaigns.active();
    if (active.length) {
      await this.planners.addBulk(active.map(({ id, plannerId }) => ({ name: 'plan' as const, data: { campaignId: id, plannerId }, opts: { jobId: campaignPlanJobId(id, plannerId) } })));
    }
    const unsettled = await this.campaigns.unsettled(GRACE_MS, this.stuckMs, SWEEP_LIMIT);
    const lost: UnsettledRecipient[] = [];
    for (let i = 0; i < unsettled.length; i += STATE_BATCH) {
      const batch = unsettled.slice(i, i + STATE_BATCH);
      const states = await Promise.all(batch.map((r) => this.dispatch.getJobState(r.messageId)));
      batch.forEach((r, k) => states[k] === 'unknown' && lost.push(r));
    }
    const byCampaign = new Map<string, UnsettledRecipient[]>();
    for (const r of lost) byCampaign.set(r.campaignId, [...(byCampaign.get(r.campaignId) ?? []), r]);
    for (const [campaignId, rows] of byCampaign) {
      const c: CampaignRow | null = await this.campaigns.byId(campaignId);
      if (!c) continue;
      await this.planner.enqueue(c, rows, (r) => Math.max(1, (r as UnsettledRecipient).validityLeft));
      this.logger.warn(`campaign ${campaignId}: ${rows.length} admitted messages had no dispatch job (Redis lost them); queued again under their message ids`);
    }
    return lost.length;
  }
}
