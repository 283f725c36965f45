-- The console's inbox: a conversation's assignee and how far agents have read it, agents' internal
-- notes (never sent to the user), and each bot's canned responses.

CREATE TABLE "inbox_conversations" (
    "conversation_id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "assigned_user_id" UUID,
    "read_seq" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "inbox_conversations_pkey" PRIMARY KEY ("conversation_id")
);

CREATE TABLE "conversation_notes" (
    "id" UUID NOT NULL,
    "conversation_id" UUID NOT NULL,
    "author_user_id" UUID,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "conversation_notes_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "canned_responses" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "quick_replies" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "canned_responses_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "inbox_conversations_bot_id_assigned_user_id_idx" ON "inbox_conversations"("bot_id", "assigned_user_id");

CREATE INDEX "conversation_notes_conversation_id_created_at_idx" ON "conversation_notes"("conversation_id", "created_at");

CREATE UNIQUE INDEX "canned_responses_bot_id_title_key" ON "canned_responses"("bot_id", "title");

ALTER TABLE "inbox_conversations" ADD CONSTRAINT "inbox_conversations_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "inbox_conversations" ADD CONSTRAINT "inbox_conversations_assigned_user_id_fkey" FOREIGN KEY ("assigned_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_author_user_id_fkey" FOREIGN KEY ("author_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "canned_responses" ADD CONSTRAINT "canned_responses_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
