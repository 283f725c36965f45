-- Bot webhooks and postbacks become one callback system: endpoints per bot and kind, one signing
-- secret per bot (with a previous one during a rotation), one delivery log for both kinds.

-- CreateTable
CREATE TABLE "callback_endpoints" (
    "bot_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "failing_since" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "callback_endpoints_pkey" PRIMARY KEY ("bot_id","kind")
);

-- CreateTable
CREATE TABLE "callback_secrets" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "secret_encrypted" TEXT NOT NULL,
    "previous_secret_encrypted" TEXT,
    "previous_expires_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "callback_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "callback_secrets_bot_id_key" ON "callback_secrets"("bot_id");

-- AddForeignKey
ALTER TABLE "callback_endpoints" ADD CONSTRAINT "callback_endpoints_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_secrets" ADD CONSTRAINT "callback_secrets_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Move the settings kept on bots (a secret could exist without a webhook URL: postbacks only).
INSERT INTO "callback_endpoints" ("bot_id", "kind", "url", "updated_at")
SELECT "id", 'webhook', "webhook_url", CURRENT_TIMESTAMP FROM "bots" WHERE "webhook_url" IS NOT NULL;

INSERT INTO "callback_endpoints" ("bot_id", "kind", "url", "updated_at")
SELECT "id", 'postback', "postback_url", CURRENT_TIMESTAMP FROM "bots" WHERE "postback_url" IS NOT NULL;

INSERT INTO "callback_secrets" ("id", "bot_id", "secret_encrypted", "updated_at")
SELECT gen_random_uuid(), "id", "webhook_secret_encrypted", CURRENT_TIMESTAMP FROM "bots" WHERE "webhook_secret_encrypted" IS NOT NULL;

-- AlterTable
ALTER TABLE "bots" DROP COLUMN "postback_url",
DROP COLUMN "webhook_secret_encrypted",
DROP COLUMN "webhook_url";

-- The postback log becomes the log of both kinds; its rows stay, as postbacks.
ALTER TABLE "postbacks" RENAME TO "callback_deliveries";
ALTER TABLE "callback_deliveries" RENAME CONSTRAINT "postbacks_pkey" TO "callback_deliveries_pkey";
ALTER TABLE "callback_deliveries" RENAME CONSTRAINT "postbacks_bot_id_fkey" TO "callback_deliveries_bot_id_fkey";
ALTER INDEX "postbacks_bot_id_created_at_idx" RENAME TO "callback_deliveries_bot_id_created_at_idx";
ALTER TABLE "callback_deliveries" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'postback',
ADD COLUMN "event" TEXT NOT NULL DEFAULT 'message.status',
ADD COLUMN "replays" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "duplicates" INTEGER NOT NULL DEFAULT 0,
ALTER COLUMN "message_id" DROP NOT NULL,
ALTER COLUMN "status" DROP NOT NULL;
