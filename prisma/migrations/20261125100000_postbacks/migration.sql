-- AlterTable
ALTER TABLE "bots" ADD COLUMN     "postback_url" TEXT;

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "custom_payload" JSONB,
ADD COLUMN     "postback_url" TEXT;

-- CreateTable
CREATE TABLE "postbacks" (
    "id" TEXT NOT NULL,
    "bot_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_status" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "postbacks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "postbacks_bot_id_created_at_idx" ON "postbacks"("bot_id", "created_at");

-- AddForeignKey
ALTER TABLE "postbacks" ADD CONSTRAINT "postbacks_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
