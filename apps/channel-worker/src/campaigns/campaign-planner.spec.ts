import 'reflect-metadata';
import { DelayedError, type Job } from 'bullmq';
import type { CampaignPlanJob } from '@platform/contracts';
import type { AdmittedRecipient, CampaignRepository, CampaignRow, CarouselCatalog } from '@platform/database';
import type { CarouselDispatchQueue } from '@platform/queue';
import type { SenderPacer } from '@platform/whatsapp';
import { CAMPAIGN_PRIORITY, CampaignPlanner, ROUND_MS } from './campaign-planner.js';

const campaign = {
  id: 'c1',
  botId: 'b1',
  templateId: 't1',
  senderId: 's1',
  status: 'running',
  plannerId: 'p1',
  sendShare: 0.5,
  validitySeconds: null,
  startAt: null,
} as unknown as CampaignRow;

const recipient = (n: number): AdmittedRecipient => ({ recipient: `9190000000${n}`, messageId: `m${n}`, values: { cards: [{ mediaLink: `https://cdn.example/${n}.jpg` }] } });

interface Options {
  campaign?: Partial<CampaignRow> | null;
  backlog?: number;
  /** Recipients the admit call hands over (at most its limit). */
  pending?: number;
  runIfDue?: boolean;
  /** The share of its rate the number may use now (after a 130429). */
  share?: number;
}

function setup(o: Options = {}) {
  const limits: number[] = [];
  const added: Array<{ name: string; data: { messageId: string; campaignId?: string }; opts: { jobId: string; priority: number } }> = [];
  const completed: string[] = [];
  const c = o.campaign === null ? null : { ...campaign, ...o.campaign };
  const campaigns = {
    byId: async () => (c ? { ...c } : null),
    runIfDue: async () => o.runIfDue ?? false,
    admit: async (_c: CampaignRow, limit: number, enqueue: (r: AdmittedRecipient[]) => Promise<void>) => {
      limits.push(limit);
      const rows = Array.from({ length: Math.min(limit, o.pending ?? 1000) }, (_, i) => recipient(i));
      if (rows.length) await enqueue(rows);
      return { admitted: rows.length, capped: 0 };
    },
    completeIfDrained: async (id: string) => (completed.push(id), true),
  } as unknown as CampaignRepository;
  const catalog = { sender: async () => ({ id: 's1', channel: 'whatsapp', throughput: 80 }) } as unknown as CarouselCatalog;
  const dispatch = {
    getJobCounts: async () => ({ prioritized: o.backlog ?? 0, delayed: 0 }),
    addBulk: async (jobs: typeof added) => void added.push(...jobs),
  } as unknown as CarouselDispatchQueue;
  const pacer = { share: async () => o.share ?? 1 } as unknown as SenderPacer;
  return { planner: new CampaignPlanner(campaigns, catalog, dispatch, pacer), limits, added, completed };
}

function planJob(data: CampaignPlanJob) {
  const delays: number[] = [];
  const job = {
    data,
    moveToDelayed: async (at: number) => void delays.push(at - Date.now()),
    updateData: async (next: CampaignPlanJob) => void (job.data = next),
  } as unknown as Job<CampaignPlanJob>;
  return { job, delays };
}

describe('CampaignPlanner', () => {
  it("admits the campaign's share of the number's rate for the time since the last round, as prioritized jobs named by message id", async () => {
    const { planner, limits, added } = setup();
    const { job, delays } = planJob({ campaignId: 'c1', plannerId: 'p1', lastRoundAt: Date.now() - 1000 });
    await expect(planner.round(job)).rejects.toBeInstanceOf(DelayedError);
    expect(limits[0]).toBeGreaterThanOrEqual(40); // 0.5 × 80 a second over about a second
    expect(limits[0]).toBeLessThanOrEqual(42);
    expect(added[0]).toMatchObject({ name: 'send', data: { messageId: 'm0', campaignId: 'c1', recipient: '91900000000' }, opts: { jobId: 'm0', priority: CAMPAIGN_PRIORITY } });
    expect(delays[0]).toBeGreaterThan(ROUND_MS - 50);
    expect(job.data.lastRoundAt).toBeDefined();
  });

  it('a planner back after a long gap admits at most two seconds of it', async () => {
    const { planner, limits } = setup();
    await expect(planner.round(planJob({ campaignId: 'c1', plannerId: 'p1', lastRoundAt: Date.now() - 60_000 }).job)).rejects.toBeInstanceOf(DelayedError);
    expect(limits[0]).toBe(80);
  });

  it('admits nothing while the dispatch queue holds more than two seconds of the number', async () => {
    const { planner, limits, completed } = setup({ backlog: 161 });
    await expect(planner.round(planJob({ campaignId: 'c1', plannerId: 'p1' }).job)).rejects.toBeInstanceOf(DelayedError);
    expect(limits).toEqual([]);
    expect(completed).toEqual([]);
  });

  it('after a 130429 admits its share of the lowered rate, and holds at two seconds of that rate', async () => {
    const slowed = setup({ share: 0.25 });
    await expect(slowed.planner.round(planJob({ campaignId: 'c1', plannerId: 'p1', lastRoundAt: Date.now() - 1000 }).job)).rejects.toBeInstanceOf(DelayedError);
    expect(slowed.limits[0]).toBeGreaterThanOrEqual(10); // 0.5 × 80 × 0.25 a second over about a second
    expect(slowed.limits[0]).toBeLessThanOrEqual(11);
    // 41 jobs waiting: over two seconds of 20/s, well under two of 80/s
    const full = setup({ share: 0.25, backlog: 41 });
    await expect(full.planner.round(planJob({ campaignId: 'c1', plannerId: 'p1' }).job)).rejects.toBeInstanceOf(DelayedError);
    expect(full.limits).toEqual([]);
    const unslowed = setup({ backlog: 41 });
    await expect(unslowed.planner.round(planJob({ campaignId: 'c1', plannerId: 'p1', lastRoundAt: Date.now() - 1000 }).job)).rejects.toBeInstanceOf(DelayedError);
    expect(unslowed.limits[0]).toBeGreaterThanOrEqual(40);
  });

  it('completes the campaign when a round finds nothing to admit', async () => {
    const { planner, completed } = setup({ pending: 0 });
    await expect(planner.round(planJob({ campaignId: 'c1', plannerId: 'p1' }).job)).resolves.toBe('ended: campaign completed');
    expect(completed).toEqual(['c1']);
  });

  it.each([
    [{ status: 'paused' as const }, 'ended: campaign paused'],
    [{ plannerId: 'p2' }, 'ended: a newer planner serves this campaign'],
    [null, 'ended: campaign deleted'],
  ])('ends when the campaign is %j', async (change, answer) => {
    const { planner, limits } = setup({ campaign: change });
    await expect(planner.round(planJob({ campaignId: 'c1', plannerId: 'p1' }).job)).resolves.toBe(answer);
    expect(limits).toEqual([]);
  });

  it('a scheduled campaign sleeps until its start time', async () => {
    const { planner, limits } = setup({ campaign: { status: 'scheduled', startAt: new Date(Date.now() + 10_000) } });
    const { job, delays } = planJob({ campaignId: 'c1', plannerId: 'p1' });
    await expect(planner.round(job)).rejects.toBeInstanceOf(DelayedError);
    expect(limits).toEqual([]);
    expect(delays[0]).toBeGreaterThan(9_000);
  });
});
