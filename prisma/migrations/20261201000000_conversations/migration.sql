-- CreateEnum
CREATE TYPE "ConversationChannel" AS ENUM ('web', 'whatsapp');

-- CreateEnum
CREATE TYPE "MessageDirection" AS ENUM ('inbound', 'outbound');

-- CreateTable
CREATE TABLE "conversations" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "channel" "ConversationChannel" NOT NULL,
    "user_id" TEXT NOT NULL,
    "sender_id" UUID,
    "last_inbound_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "conversations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversation_messages" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "conversation_id" UUID NOT NULL,
    "direction" "MessageDirection" NOT NULL,
    "type" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "provider_message_id" TEXT,
    "status" "MessageStatus",
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error_code" TEXT,
    "last_error_text" TEXT,
    "webhook_settled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversation_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "conversations_bot_id_channel_user_id_key" ON "conversations"("bot_id", "channel", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "conversation_messages_provider_message_id_key" ON "conversation_messages"("provider_message_id");

-- CreateIndex
CREATE INDEX "conversation_messages_conversation_id_seq_idx" ON "conversation_messages"("conversation_id", "seq");

-- CreateIndex
CREATE INDEX "conversation_messages_created_at_idx" ON "conversation_messages"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "conversation_messages_seq_key" ON "conversation_messages"("seq");

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_sender_id_fkey" FOREIGN KEY ("sender_id") REFERENCES "channel_senders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
