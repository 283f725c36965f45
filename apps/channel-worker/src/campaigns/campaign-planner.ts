import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { CampaignPlanJob, CarouselDispatchJob } from '@platform/contracts';
import { AdmittedRecipient, CampaignRepository, CampaignRow, CarouselCatalog } from '@platform/database';
import { CarouselDispatchQueue } from '@platform/queue';
import { SenderPacer } from '@platform/whatsapp';

/** Time between a running campaign's rounds. */
export const ROUND_MS = 500;

/**
 * BullMQ priority of campaign messages. A worker takes every job without a priority (triggers, waiting
 * in the queue's wait list) before any prioritized one, so a trigger queued behind a campaign is taken first.
 */
export const CAMPAIGN_PRIORITY = 10;

/** A round's budget covers at most this much time: a planner that was away does not admit a burst. */
const MAX_ROUND_SPAN_MS = 2000;

/**
 * Seconds of the sender's throughput in force that may wait in the dispatch queue (prioritized: campaign
 * jobs; delayed: jobs waiting for their pacing slot or a retry); above it (Meta throttling the number,
 * workers down) a round admits nothing, so a trigger never queues behind more than about this much.
 * In force, not configured: after a 130429 the pacer lays slots out at the lowered rate, and every job
 * waiting then keeps its slot when the rate comes back, so a backlog sized by the configured rate would
 * hold the number at the lowered rate for seconds after each step up.
 */
const MAX_BACKLOG_SECONDS = 2;

/** How long a scheduled campaign's planner sleeps at most before it looks at the start time again. */
const MAX_SCHEDULE_SLEEP_MS = 60_000;

/**
 * One round of a campaign's planner (job `plan`, one per campaign): admits the recipients due now, at
 * the campaign's share of its sender's throughput, as carousel-dispatch jobs, then waits in the delayed
 * set for the next round. It ends when the campaign is no longer running, or has nothing left to admit.
 */
@Injectable()
export class CampaignPlanner {
  private readonly logger = new Logger('CampaignPlanner');

  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly catalog: CarouselCatalog,
    private readonly dispatch: CarouselDispatchQueue,
    private readonly pacer: SenderPacer,
  ) {}

  async round(job: Job<CampaignPlanJob>, lockToken?: string): Promise<string> {
    const c = await this.campaigns.byId(job.data.campaignId);
    if (!c) return 'ended: campaign deleted';
    if (c.plannerId !== job.data.plannerId) return 'ended: a newer planner serves this campaign';
    const ids = { campaignId: c.id, plannerId: job.data.plannerId };
    if (c.status === 'scheduled') {
      if (!(await this.campaigns.runIfDue(c.id))) {
        const wait = c.startAt ? Math.min(Math.max(c.startAt.getTime() - Date.now(), ROUND_MS), MAX_SCHEDULE_SLEEP_MS) : ROUND_MS;
        return this.again(job, ids, wait, lockToken);
      }
      this.logger.log(`campaign ${c.id} started (scheduled for ${c.startAt?.toISOString() ?? 'now'})`);
      c.status = 'running';
    }
    if (c.status !== 'running') return `ended: campaign ${c.status}`;
    const sender = await this.catalog.sender(c.senderId);
    if (!sender) return 'ended: sender deleted';

    const now = Date.now();
    const span = Math.min(Math.max(now - (job.data.lastRoundAt ?? now - ROUND_MS), 0), MAX_ROUND_SPAN_MS);
    const [counts, share] = await Promise.all([this.dispatch.getJobCounts('prioritized', 'delayed'), this.pacer.share(sender.phoneNumberId)]);
    const rate = sender.throughput * share;
    const exact = (c.sendShare * rate * span) / 1000 + (job.data.carry ?? 0);
    let budget = Math.floor(exact);
    const backlog = (counts.prioritized ?? 0) + (counts.delayed ?? 0);
    if (backlog > rate * MAX_BACKLOG_SECONDS) budget = 0;
    const { admitted, capped } = budget > 0 ? await this.campaigns.admit(c, budget, (rows) => this.enqueue(c, rows)) : { admitted: 0, capped: 0 };
    if (admitted === 0 && capped === 0 && budget > 0 && (await this.campaigns.completeIfDrained(c.id))) {
      this.logger.log(`campaign ${c.id} completed: every recipient admitted`);
      return 'ended: campaign completed';
    }
    return this.again(job, { ...ids, lastRoundAt: now, carry: budget > 0 ? exact - budget : 0 }, ROUND_MS, lockToken);
  }

  /**
   * Recipients as carousel-dispatch jobs, their job ids the message ids (derived from campaign and
   * recipient): a round's, or (with `validityOf`, the seconds left of each one's validity) those the
   * recovery sweep re-adds.
   */
  async enqueue(c: CampaignRow, rows: AdmittedRecipient[], validityOf?: (r: AdmittedRecipient) => number): Promise<void> {
    const sender = await this.catalog.sender(c.senderId);
    await this.dispatch.addBulk(
      rows.map((r) => {
        const validitySeconds = validityOf ? validityOf(r) : c.validitySeconds;
        const data: CarouselDispatchJob = {
          messageId: r.messageId,
          botId: c.botId,
          templateId: c.templateId,
          senderId: c.senderId,
          channel: sender?.channel ?? 'whatsapp',
          recipient: r.recipient,
          ...(r.values.bodyParameters?.length ? { bodyParameters: r.values.bodyParameters } : {}),
          cards: r.values.cards as CarouselDispatchJob['cards'],
          campaignId: c.id,
          ...(validitySeconds !== null && { validitySeconds }),
        };
        return { name: 'send' as const, data, opts: { jobId: r.messageId, priority: CAMPAIGN_PRIORITY } };
      }),
    );
  }

  private async again(job: Job<CampaignPlanJob>, data: CampaignPlanJob, waitMs: number, lockToken?: string): Promise<never> {
    await job.updateData(data);
    await job.moveToDelayed(Date.now() + waitMs, lockToken);
    throw new DelayedError();
  }
}
