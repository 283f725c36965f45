/**
 * Meta's messaging limits: how many unique WhatsApp users a business may message outside a customer
 * service window (business-initiated, templates) in a moving 24 hours. The Graph API names them as
 * tiers (`whatsapp_business_manager_messaging_limit`, formerly `messaging_limit_tier`): TIER_50,
 * TIER_250, TIER_1K, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED.
 */

/** A tier's limit: recipients in 24 h, null for TIER_UNLIMITED, undefined for a name not understood. */
export function messagingLimitOfTier(tier: string | null | undefined): number | null | undefined {
  if (!tier) return undefined;
  if (tier === 'TIER_UNLIMITED') return null;
  const m = /^TIER_(\d+)(K?)$/.exec(tier);
  return m ? Number(m[1]) * (m[2] ? 1000 : 1) : undefined;
}

/** The check of a campaign's audience against its sender's messaging limit (preview and start). */
export interface MessagingLimitCheckView {
  /** The sender's tier as Meta last answered it, or null when never read. */
  tier: string | null;
  /** Its limit (unique recipients in 24 h); null when unlimited or unknown. */
  limit: number | null;
  /** When the tier was read from Meta; `fresh` when read for this check. */
  readAt: string | null;
  fresh: boolean;
  /** Unique recipients the number sent business-initiated messages to in the last 24 hours. */
  messagedLast24h: number;
  /** Recipients of the campaign still to send, not among those, that its pace can reach in the next 24 hours. */
  campaignNext24h: number;
  /** Whether the two together pass the limit. */
  exceeded: boolean;
  /** What to tell the operator: the tier, the counts and what to do (empty when within the limit). */
  warning: string | null;
}
