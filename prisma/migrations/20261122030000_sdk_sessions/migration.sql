-- AlterTable
ALTER TABLE "bots" ADD COLUMN     "webhook_url" TEXT,
ADD COLUMN     "webhook_secret_encrypted" TEXT;

-- CreateTable
CREATE TABLE "sdk_sessions" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "device_token" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sdk_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sdk_sessions_bot_id_user_id_idx" ON "sdk_sessions"("bot_id", "user_id");

-- CreateIndex
CREATE INDEX "sdk_sessions_expires_at_idx" ON "sdk_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "sdk_sessions" ADD CONSTRAINT "sdk_sessions_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
