-- Administration (issue 23 item 6): audit log, two-factor sign-in, invitations by link, deletable senders.

-- Senders are soft-deleted so the message log keeps naming them; a number is unique among live senders only.
ALTER TABLE "channel_senders" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
DROP INDEX "channel_senders_bot_id_channel_number_key";
CREATE UNIQUE INDEX "channel_senders_live_number_key" ON "channel_senders"("bot_id", "channel", "number") WHERE "deleted_at" IS NULL;
CREATE INDEX "channel_senders_bot_id_channel_number_idx" ON "channel_senders"("bot_id", "channel", "number");
-- A sender's recent failures (the senders page) read failed messages of one sender by time.
CREATE INDEX "messages_sender_failed_idx" ON "messages"("sender_id", "updated_at") WHERE "status" = 'failed';

ALTER TABLE "users" ADD COLUMN "totp_secret_encrypted" TEXT;
ALTER TABLE "users" ADD COLUMN "totp_enabled_at" TIMESTAMPTZ(3);
ALTER TABLE "users" ADD COLUMN "totp_last_step" BIGINT;

CREATE TABLE "audit_entries" (
  "id" UUID NOT NULL,
  "bot_id" UUID REFERENCES "bots"("id") ON DELETE CASCADE,
  "user_id" UUID REFERENCES "users"("id") ON DELETE SET NULL,
  "actor_email" TEXT NOT NULL,
  "client_id" TEXT,
  "action" TEXT NOT NULL,
  "method" TEXT NOT NULL,
  "path" TEXT NOT NULL,
  "target" TEXT,
  "status_code" INTEGER NOT NULL,
  "ip" TEXT NOT NULL,
  "user_agent" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_entries_bot_id_created_at_id_idx" ON "audit_entries"("bot_id", "created_at" DESC, "id" DESC);

CREATE TABLE "recovery_codes" (
  "id" UUID NOT NULL,
  "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "code_hash" TEXT NOT NULL,
  "used_at" TIMESTAMPTZ(3),
  CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "recovery_codes_code_hash_key" ON "recovery_codes"("code_hash");
CREATE INDEX "recovery_codes_user_id_idx" ON "recovery_codes"("user_id");

CREATE TABLE "invitations" (
  "id" UUID NOT NULL,
  "bot_id" UUID NOT NULL REFERENCES "bots"("id") ON DELETE CASCADE,
  "email" TEXT NOT NULL,
  "role" "BotRole" NOT NULL,
  "token_hash" TEXT NOT NULL,
  "invited_by" UUID REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "accepted_at" TIMESTAMPTZ(3),
  "revoked_at" TIMESTAMPTZ(3),
  CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_bot_id_created_at_idx" ON "invitations"("bot_id", "created_at");

-- The errors of each delivery attempt, for the message's timeline in the console. Written only when an attempt
-- fails or is throttled (a successful send is the message's sent_at), so the send path pays nothing.
CREATE TABLE "message_attempt_events" (
  "id" BIGSERIAL PRIMARY KEY,
  "message_id" UUID NOT NULL REFERENCES "messages"("id") ON DELETE CASCADE,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "attempt" INTEGER NOT NULL,
  "kind" TEXT NOT NULL,
  "code" TEXT,
  "text" TEXT
);
CREATE INDEX "message_attempt_events_message_id_idx" ON "message_attempt_events"("message_id", "at");
