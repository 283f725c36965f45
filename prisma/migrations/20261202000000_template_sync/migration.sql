-- AlterTable
ALTER TABLE "channel_senders" ADD COLUMN     "waba_id" TEXT;

-- AlterTable
ALTER TABLE "templates" ADD COLUMN     "body_parameter_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cards" JSONB,
ADD COLUMN     "provider_template_id" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'APPROVED',
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "waba_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "templates_bot_id_provider_template_id_key" ON "templates"("bot_id", "provider_template_id");
