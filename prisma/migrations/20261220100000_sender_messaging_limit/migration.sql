-- Meta's messaging limit (24-hour unique business-initiated recipients) of each WhatsApp sender, as the Graph API
-- last answered it (docs/campaigns.md, "Messaging limits"): TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED...
ALTER TABLE "channel_senders" ADD COLUMN "messaging_limit_tier" TEXT;
ALTER TABLE "channel_senders" ADD COLUMN "messaging_limit_read_at" TIMESTAMPTZ(3);
