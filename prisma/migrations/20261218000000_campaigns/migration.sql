-- Campaigns: one carousel template sent to an audience (docs/campaigns.md).
CREATE TYPE "CampaignStatus" AS ENUM ('draft', 'scheduled', 'running', 'paused', 'cancelled', 'completed');
CREATE TYPE "CampaignRecipientStatus" AS ENUM ('pending', 'queued', 'capped', 'invalid', 'cancelled');

CREATE TABLE "campaigns" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "template_id" UUID NOT NULL,
    "sender_id" UUID NOT NULL,
    "status" "CampaignStatus" NOT NULL DEFAULT 'draft',
    "mapping" JSONB NOT NULL,
    "start_at" TIMESTAMPTZ(3),
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "quiet_from_minute" INTEGER,
    "quiet_to_minute" INTEGER,
    "frequency_cap" INTEGER,
    "transactional" BOOLEAN NOT NULL DEFAULT false,
    "send_share" DOUBLE PRECISION NOT NULL DEFAULT 0.8,
    "validity_seconds" INTEGER,
    "audience_source" TEXT,
    "upload_id" UUID,
    "planner_id" UUID,
    "audience_ready" BOOLEAN NOT NULL DEFAULT false,
    "rows_total" INTEGER NOT NULL DEFAULT 0,
    "rows_invalid" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "campaigns_bot_id_created_at_idx" ON "campaigns"("bot_id", "created_at");
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "templates"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_sender_id_fkey" FOREIGN KEY ("sender_id") REFERENCES "channel_senders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The ledger: one row per (campaign, recipient); its message id is derived from both, so the message is claimed once.
CREATE TABLE "campaign_recipients" (
    "campaign_id" UUID NOT NULL,
    "recipient" TEXT NOT NULL,
    "bot_id" UUID NOT NULL,
    "row_no" INTEGER NOT NULL,
    "upload_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "status" "CampaignRecipientStatus" NOT NULL DEFAULT 'pending',
    "time_zone" TEXT,
    "values" JSONB,
    "error" TEXT,
    "admitted_at" TIMESTAMPTZ(3),
    "counts_for_cap" BOOLEAN NOT NULL DEFAULT true,
    CONSTRAINT "campaign_recipients_pkey" PRIMARY KEY ("campaign_id", "recipient")
);
CREATE UNIQUE INDEX "campaign_recipients_message_id_key" ON "campaign_recipients"("message_id");
CREATE INDEX "campaign_recipients_campaign_id_status_row_no_idx" ON "campaign_recipients"("campaign_id", "status", "row_no");
CREATE INDEX "campaign_recipients_bot_id_recipient_admitted_at_idx" ON "campaign_recipients"("bot_id", "recipient", "admitted_at");
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;
