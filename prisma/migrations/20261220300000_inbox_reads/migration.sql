-- The inbox's read marks become per member: what each agent has not seen yet, not one flag shared by the
-- team (one agent opening a conversation no longer clears it for the others). The shared mark goes: it
-- cannot say which member read what, so members start with their unread counts from the beginning.
CREATE TABLE "inbox_reads" (
    "conversation_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "read_seq" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "inbox_reads_pkey" PRIMARY KEY ("conversation_id", "user_id")
);

ALTER TABLE "inbox_reads" ADD CONSTRAINT "inbox_reads_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "inbox_reads" ADD CONSTRAINT "inbox_reads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "inbox_conversations" DROP COLUMN "read_seq";
