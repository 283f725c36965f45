-- A bot's face on the chat page: its display name and avatar (an https address, or an uploaded picture kept here).
CREATE TABLE "bot_profiles" (
    "bot_id" UUID NOT NULL,
    "display_name" TEXT,
    "avatar_url" TEXT,
    "avatar_type" TEXT,
    "avatar_bytes" BYTEA,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "bot_profiles_pkey" PRIMARY KEY ("bot_id"),
    CONSTRAINT "bot_profiles_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Files a web-chat user sent: the bytes stay in Postgres (no directory to configure, back up or share
-- between replicas) and are served from an unguessable address; erased with the user's conversation.
CREATE TABLE "chat_attachments" (
    "id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "conversation_id" UUID NOT NULL,
    "content_type" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "chat_attachments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "chat_attachments_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "chat_attachments_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "chat_attachments_conversation_id_idx" ON "chat_attachments"("conversation_id");
