-- CreateTable
CREATE TABLE "conversation_message_parts" (
    "message_id" UUID NOT NULL,
    "part" INTEGER NOT NULL,
    "provider_message_id" TEXT NOT NULL,
    "status" "MessageStatus" NOT NULL DEFAULT 'sent',
    "last_error_code" TEXT,
    "last_error_text" TEXT,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "conversation_message_parts_pkey" PRIMARY KEY ("message_id","part")
);

-- CreateIndex
CREATE UNIQUE INDEX "conversation_message_parts_provider_message_id_key" ON "conversation_message_parts"("provider_message_id");

-- AddForeignKey
ALTER TABLE "conversation_message_parts" ADD CONSTRAINT "conversation_message_parts_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "conversation_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Replies sent before parts were recorded: their one recorded wamid becomes their only part.
INSERT INTO "conversation_message_parts" ("message_id", "part", "provider_message_id", "status", "last_error_code", "last_error_text")
SELECT "id", 0, "provider_message_id", "status", "last_error_code", "last_error_text"
FROM "conversation_messages"
WHERE "direction" = 'outbound' AND "provider_message_id" IS NOT NULL AND "provider_message_id" NOT LIKE 'web:%'
  AND "status" IN ('sent', 'delivered', 'read', 'failed');
