import 'reflect-metadata';
import type { CampaignRepository, CampaignRow, ChannelSender, ChannelSenderRepository } from '@platform/database';
import type { MessagingLimitReader } from '@platform/whatsapp';
import { MessagingLimitCheck } from './messaging-limit-check.js';

const campaign = { id: 'c1', botId: 'b1', senderId: 's1', sendShare: 0.8 } as CampaignRow;
const stored = { id: 's1', channel: 'whatsapp', number: '15550001111', throughput: 80, messagingLimitTier: 'TIER_250', messagingLimitReadAt: new Date('2026-12-01T00:00:00Z') } as ChannelSender;

function setup(counts: { messaged: number; newRecipients: number }, sender: ChannelSender = stored, metaTier = 'TIER_1K') {
  const refreshed: string[] = [];
  const campaigns = { messagingLimitCounts: async () => counts } as unknown as CampaignRepository;
  const senders = { findById: async () => sender } as unknown as ChannelSenderRepository;
  const limits = { refresh: async (s: ChannelSender) => (refreshed.push(s.id), { tier: metaTier, readAt: new Date(), fresh: true }) } as unknown as MessagingLimitReader;
  return { check: new MessagingLimitCheck(campaigns, senders, limits), refreshed };
}

describe('MessagingLimitCheck', () => {
  it('warns when the last 24 hours plus the campaign pass the tier, naming the tier, the counts and what to do', async () => {
    const { check, refreshed } = setup({ messaged: 200, newRecipients: 90 });
    const result = await check.check(campaign, false);
    expect(refreshed).toEqual([]); // a preview uses the stored tier
    expect(result).toMatchObject({ tier: 'TIER_250', limit: 250, fresh: false, messagedLast24h: 200, campaignNext24h: 90, exceeded: true });
    expect(result.warning).toContain("Meta's messaging limit TIER_250: at most 250 unique users in 24 hours");
    expect(result.warning).toContain('messaged 200 in the last 24 hours and this campaign would add 90 more in the next 24 hours (290 in all, 40 over)');
    expect(result.warning).toContain('acknowledgeTierLimit: true');
  });

  it("reads the tier from Meta on a start (and for a sender never read), and is within TIER_1K's limit", async () => {
    const start = setup({ messaged: 200, newRecipients: 90 });
    expect(await start.check.check(campaign, true)).toMatchObject({ tier: 'TIER_1K', limit: 1000, fresh: true, exceeded: false, warning: null });
    expect(start.refreshed).toEqual(['s1']);
    const never = setup({ messaged: 0, newRecipients: 1 }, { ...stored, messagingLimitTier: null, messagingLimitReadAt: null });
    await never.check.check(campaign, false);
    expect(never.refreshed).toEqual(['s1']);
  });

  it("counts at most what the campaign's pace sends in 24 hours; an unlimited or unknown tier never warns", async () => {
    const slow = setup({ messaged: 0, newRecipients: 1_000_000 }, { ...stored, throughput: 1, messagingLimitTier: 'TIER_100K' });
    expect(await slow.check.check({ ...campaign, sendShare: 0.5 }, false)).toMatchObject({ campaignNext24h: 43_200, exceeded: false });
    expect((await setup({ messaged: 5, newRecipients: 10 ** 6 }, stored, 'TIER_UNLIMITED').check.check(campaign, true)).exceeded).toBe(false);
    expect((await setup({ messaged: 5, newRecipients: 10 ** 6 }, stored, 'SOMETHING_NEW').check.check(campaign, true)).exceeded).toBe(false);
  });
});
