import 'reflect-metadata';
import type { JobLockEnv, WhatsAppEnv } from '@platform/config';
import type { CampaignRepository, CampaignRow, CarouselCatalog, UnsettledRecipient } from '@platform/database';
import type { CampaignPlanQueue, CarouselDispatchQueue } from '@platform/queue';
import type { SenderPacer } from '@platform/whatsapp';
import { CAMPAIGN_PRIORITY, CampaignPlanner } from './campaign-planner.js';
import { CampaignRecovery } from './campaign-recovery.js';

const campaign = { id: 'c1', botId: 'b1', templateId: 't1', senderId: 's1', status: 'running', plannerId: 'p1', validitySeconds: 600 } as unknown as CampaignRow;

const unsettled = (n: number, validityLeft = 500): UnsettledRecipient => ({
  campaignId: 'c1',
  recipient: `9190000000${n}`,
  messageId: `m${n}`,
  values: { cards: [{ mediaLink: `https://cdn.example/${n}.jpg` }] },
  validityLeft,
});

function setup(rows: UnsettledRecipient[], inRedis: Set<string>) {
  const asked: Array<[number, number, number]> = [];
  const campaigns = {
    active: async () => [{ id: 'c1', plannerId: 'p1' }],
    unsettled: async (graceMs: number, stuckMs: number, limit: number) => {
      asked.push([graceMs, stuckMs, limit]);
      return rows;
    },
    byId: async () => ({ ...campaign }),
  } as unknown as CampaignRepository;
  const planned: Array<{ opts: { jobId: string } }> = [];
  const planners = { addBulk: async (jobs: Array<{ opts: { jobId: string } }>) => void planned.push(...jobs) } as unknown as CampaignPlanQueue;
  const added: Array<{ data: { messageId: string; validitySeconds?: number }; opts: { jobId: string; priority: number } }> = [];
  const dispatch = {
    getJobState: async (id: string) => (inRedis.has(id) ? 'delayed' : 'unknown'),
    addBulk: async (jobs: typeof added) => void added.push(...jobs),
  } as unknown as CarouselDispatchQueue;
  const catalog = { sender: async () => ({ id: 's1', channel: 'whatsapp', throughput: 80 }) } as unknown as CarouselCatalog;
  const planner = new CampaignPlanner(campaigns, catalog, dispatch, { share: async () => 1 } as unknown as SenderPacer);
  const recovery = new CampaignRecovery(campaigns, planner, planners, dispatch, { WORKER_LOCK_MS: 1000, CAMPAIGN_RECOVERY_MS: 1000 } as JobLockEnv, { WHATSAPP_TIMEOUT_MS: 4000 } as WhatsAppEnv);
  return { recovery, planned, added, asked };
}

describe('CampaignRecovery', () => {
  it("re-adds the planner of each active campaign and the dispatch jobs Redis no longer has, under the message ids, with what is left of each one's validity", async () => {
    const { recovery, planned, added, asked } = setup([unsettled(1), unsettled(2, 0), unsettled(3)], new Set(['m3']));
    expect(await recovery.sweep()).toBe(2);
    expect(planned.map((j) => j.opts.jobId)).toHaveLength(1);
    expect(added.map((j) => [j.opts.jobId, j.opts.priority, j.data.validitySeconds])).toEqual([
      ['m1', CAMPAIGN_PRIORITY, 500],
      ['m2', CAMPAIGN_PRIORITY, 1],
    ]);
    // a message left processing longer than a send's timeout and two job locks has no live attempt
    expect(asked).toEqual([[5000, 6000, 5000]]);
  });

  it('adds nothing while every unsettled message still has its job', async () => {
    const { recovery, added } = setup([unsettled(1)], new Set(['m1']));
    expect(await recovery.sweep()).toBe(0);
    expect(added).toEqual([]);
  });
});
