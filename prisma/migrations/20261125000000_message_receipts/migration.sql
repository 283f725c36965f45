-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "delivered_at" TIMESTAMPTZ(3),
ADD COLUMN     "read_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "messages_provider_message_id_idx" ON "messages"("provider_message_id");
