import { Injectable } from '@nestjs/common';
import { MessagingLimitCheckView, messagingLimitOfTier } from '@platform/contracts';
import { CampaignRepository, CampaignRow, ChannelSenderRepository } from '@platform/database';
import { MessagingLimitReader, SenderMessagingLimit } from '@platform/whatsapp';

const DAY_SECONDS = 86_400;
const n = (v: number) => v.toLocaleString('en-US');

/**
 * A campaign's audience against its sender's messaging limit (Meta's tier: unique users messaged
 * business-initiated in a moving 24 hours): the users the number messaged in the last 24 hours plus the
 * campaign's recipients not among them that its pace reaches in the next 24 hours. Over the limit, Meta
 * refuses the messages past it; the check warns before the start (docs/campaigns.md, "Messaging limits").
 */
@Injectable()
export class MessagingLimitCheck {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly senders: ChannelSenderRepository,
    private readonly limits: MessagingLimitReader,
  ) {}

  /** `refresh`: ask Meta for the tier now (a start); else the stored one, read from Meta only if never read (a preview). */
  async check(c: CampaignRow, refresh: boolean): Promise<MessagingLimitCheckView> {
    const sender = await this.senders.findById(c.senderId);
    if (!sender || sender.channel !== 'whatsapp') return unknown();
    const tier: SenderMessagingLimit =
      refresh || !sender.messagingLimitReadAt ? await this.limits.refresh(sender) : { tier: sender.messagingLimitTier, readAt: sender.messagingLimitReadAt, fresh: false };
    const { messaged, newRecipients } = await this.campaigns.messagingLimitCounts(c);
    // A campaign cannot send more in 24 hours than its share of the number's rate allows.
    const next = Math.min(newRecipients, Math.floor(c.sendShare * sender.throughput * DAY_SECONDS));
    const limit = messagingLimitOfTier(tier.tier) ?? null;
    const exceeded = limit !== null && messaged + next > limit;
    return {
      tier: tier.tier,
      limit,
      readAt: tier.readAt?.toISOString() ?? null,
      fresh: tier.fresh,
      messagedLast24h: messaged,
      campaignNext24h: next,
      exceeded,
      warning: exceeded
        ? `Sender +${sender.number} is at Meta's messaging limit ${tier.tier}: at most ${n(limit)} unique users in 24 hours get business-initiated messages. ` +
          `It has messaged ${n(messaged)} in the last 24 hours and this campaign would add ${n(next)} more in the next 24 hours (${n(messaged + next)} in all, ` +
          `${n(messaged + next - limit)} over). Meta refuses the messages past the limit. Send to fewer recipients (split the audience over days), ` +
          `start later, or wait for Meta to raise the tier; to start anyway, start again with acknowledgeTierLimit: true.`
        : null,
    };
  }
}

function unknown(): MessagingLimitCheckView {
  return { tier: null, limit: null, readAt: null, fresh: false, messagedLast24h: 0, campaignNext24h: 0, exceeded: false, warning: null };
}
