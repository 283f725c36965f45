-- CreateEnum
CREATE TYPE "DevicePlatform" AS ENUM ('android', 'ios', 'web');

-- CreateEnum
CREATE TYPE "PushPriority" AS ENUM ('normal', 'high');

-- CreateEnum
CREATE TYPE "PushNotificationStatus" AS ENUM ('queued', 'sending', 'completed', 'failed');

-- CreateTable
CREATE TABLE "push_configs" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "project_id" TEXT NOT NULL,
    "credentials_encrypted" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "push_configs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_devices" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "platform" "DevicePlatform" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "dead_at" TIMESTAMPTZ(3),
    "dead_reason" TEXT,

    CONSTRAINT "push_devices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_notifications" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "target_user_ids" TEXT[],
    "target_all" BOOLEAN NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "journey_slug" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "ttl_seconds" INTEGER,
    "priority" "PushPriority" NOT NULL DEFAULT 'high',
    "status" "PushNotificationStatus" NOT NULL DEFAULT 'queued',
    "failure_reason" TEXT,
    "total" INTEGER NOT NULL DEFAULT 0,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "invalid_tokens" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "plan_cursor" UUID,
    "planned_batches" INTEGER NOT NULL DEFAULT 0,
    "planning_done" BOOLEAN NOT NULL DEFAULT false,
    "completed_batches" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "push_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_notification_batches" (
    "notification_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "invalid_tokens" INTEGER NOT NULL,
    "skipped" INTEGER NOT NULL,
    "completed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_notification_batches_pkey" PRIMARY KEY ("notification_id","seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "push_configs_bot_id_key" ON "push_configs"("bot_id");

-- CreateIndex
CREATE INDEX "push_configs_key_id_idx" ON "push_configs"("key_id");

-- CreateIndex
CREATE INDEX "push_devices_bot_id_id_idx" ON "push_devices"("bot_id", "id");

-- CreateIndex
CREATE INDEX "push_devices_bot_id_user_id_idx" ON "push_devices"("bot_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "push_devices_bot_id_token_key" ON "push_devices"("bot_id", "token");

-- CreateIndex
CREATE INDEX "push_notifications_bot_id_created_at_idx" ON "push_notifications"("bot_id", "created_at");

-- AddForeignKey
ALTER TABLE "push_configs" ADD CONSTRAINT "push_configs_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_notifications" ADD CONSTRAINT "push_notifications_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_notification_batches" ADD CONSTRAINT "push_notification_batches_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "push_notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
