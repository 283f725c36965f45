-- Hosted bots: a definition draft and its published versions, per-bot secrets for http nodes, and
-- the runtime's per-conversation state, ordered inputs, outbox and step trace.

CREATE TABLE "bot_definitions" (
    "bot_id" UUID NOT NULL,
    "draft" JSONB,
    "draft_updated_at" TIMESTAMPTZ(3),
    "published_version" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "bot_definitions_pkey" PRIMARY KEY ("bot_id")
);

CREATE TABLE "bot_versions" (
    "bot_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "published_by" TEXT,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "bot_versions_pkey" PRIMARY KEY ("bot_id","version")
);

CREATE TABLE "bot_secrets" (
    "bot_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "value_encrypted" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "bot_secrets_pkey" PRIMARY KEY ("bot_id","name")
);
CREATE INDEX "bot_secrets_key_id_idx" ON "bot_secrets"("key_id");

CREATE TABLE "bot_conversation_states" (
    "conversation_id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER,
    "journey" TEXT,
    "node" TEXT,
    "variables" JSONB NOT NULL DEFAULT '{}',
    "retries" INTEGER NOT NULL DEFAULT 0,
    "payload" TEXT,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "bot_conversation_states_pkey" PRIMARY KEY ("conversation_id")
);
CREATE INDEX "bot_conversation_states_bot_id_status_idx" ON "bot_conversation_states"("bot_id", "status");

CREATE TABLE "bot_inputs" (
    "seq" BIGSERIAL NOT NULL,
    "conversation_id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "message_id" UUID,
    "payload" TEXT,
    "journey_slug" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(3),
    CONSTRAINT "bot_inputs_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "bot_inputs_message_id_key" ON "bot_inputs"("message_id");
CREATE INDEX "bot_inputs_conversation_id_seq_idx" ON "bot_inputs"("conversation_id", "seq");

CREATE TABLE "bot_outbox" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "conversation_id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "message_id" UUID,
    "event" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "bot_outbox_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "bot_outbox_id_key" ON "bot_outbox"("id");
CREATE INDEX "bot_outbox_conversation_id_seq_idx" ON "bot_outbox"("conversation_id", "seq");

CREATE TABLE "bot_steps" (
    "id" BIGSERIAL NOT NULL,
    "conversation_id" UUID NOT NULL,
    "bot_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "input_seq" BIGINT,
    "journey" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "duration_ms" DOUBLE PRECISION NOT NULL,
    "sandbox_ms" DOUBLE PRECISION,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "bot_steps_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "bot_steps_conversation_id_id_idx" ON "bot_steps"("conversation_id", "id");
CREATE INDEX "bot_steps_started_at_idx" ON "bot_steps"("started_at");

ALTER TABLE "bot_definitions" ADD CONSTRAINT "bot_definitions_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bot_versions" ADD CONSTRAINT "bot_versions_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bot_secrets" ADD CONSTRAINT "bot_secrets_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bot_conversation_states" ADD CONSTRAINT "bot_conversation_states_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bot_inputs" ADD CONSTRAINT "bot_inputs_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bot_outbox" ADD CONSTRAINT "bot_outbox_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bot_steps" ADD CONSTRAINT "bot_steps_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
