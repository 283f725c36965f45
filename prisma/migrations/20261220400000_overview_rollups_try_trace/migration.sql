-- Two things (docs/console.md#overview and #try-it, docs/architecture.md "Overview rollups"):
--
-- 1. The overview's replies, conversations and journey steps are counted through daily rollups, as its
--    carousel messages already are (20261212000000_overview): at 10 million messages the live reads of
--    90 days of steps (550,000) and replies (1,000,000) took 1.75 s and 0.8 s, past the gateway's query
--    timeout. The same scheme: statement-level triggers only mark the (bot, day, part) a statement touched
--    as dirty (ON CONFLICT DO NOTHING: no row lock, no hot counter row), and the overview call recounts the
--    dirty days of its range before reading the rollup. So it is exact at every read, a late status marks
--    its old day again, and no periodic job is needed.
-- 2. The builder's try-it trace is live: a step of a test version (version < 0) carries the variables as
--    they were after it, and its insert notifies `bot_try_steps` with the conversation id, which the
--    gateway's try-it event stream listens to. Steps of published versions write neither.

ALTER TABLE "bot_steps" ADD COLUMN "variables" JSONB;

CREATE TABLE "overview_stats_dirty" (
    "bot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    -- steps, replies or conversations
    "part" TEXT NOT NULL,
    CONSTRAINT "overview_stats_dirty_pkey" PRIMARY KEY ("bot_id", "part", "day")
);

-- Per bot, UTC day, journey and node: the day's step counts. "reached" and "stopped" are per day: a
-- conversation that ran a node on two days counts on each (a range's numbers are sums of its days).
CREATE TABLE "bot_step_daily_stats" (
    "bot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "journey" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reached" INTEGER NOT NULL,
    "steps" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "stopped" INTEGER NOT NULL,
    "ended" INTEGER NOT NULL,
    "waiting" INTEGER NOT NULL,
    CONSTRAINT "bot_step_daily_stats_pkey" PRIMARY KEY ("bot_id", "day", "journey", "node")
);

-- The bot's replies in conversations (outbound conversation messages, test conversations left out) per UTC day, by status now.
CREATE TABLE "reply_daily_stats" (
    "bot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "pending" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL,
    "delivered" INTEGER NOT NULL,
    "read" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    CONSTRAINT "reply_daily_stats_pkey" PRIMARY KEY ("bot_id", "day")
);

-- Conversations started per UTC day and channel (test conversations left out).
CREATE TABLE "conversation_daily_stats" (
    "bot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "channel" TEXT NOT NULL,
    "conversations" INTEGER NOT NULL,
    CONSTRAINT "conversation_daily_stats_pkey" PRIMARY KEY ("bot_id", "day", "channel")
);

ALTER TABLE "overview_stats_dirty" ADD CONSTRAINT "overview_stats_dirty_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "bot_step_daily_stats" ADD CONSTRAINT "bot_step_daily_stats_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "reply_daily_stats" ADD CONSTRAINT "reply_daily_stats_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversation_daily_stats" ADD CONSTRAINT "conversation_daily_stats_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Steps: published versions' mark their day; test versions' notify the try-it stream (NOTIFY is sent at commit).
CREATE FUNCTION "bot_steps_mark_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO overview_stats_dirty (bot_id, day, part)
  SELECT DISTINCT bot_id, (started_at AT TIME ZONE 'UTC')::date, 'steps' FROM new_rows WHERE version > 0
  ON CONFLICT DO NOTHING;
  PERFORM pg_notify('bot_try_steps', c::text) FROM (SELECT DISTINCT conversation_id AS c FROM new_rows WHERE version < 0) t;
  RETURN NULL;
END $$;

CREATE FUNCTION "bot_steps_mark_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a deleted bot's rows go with it (its markers too, by the foreign key)
  INSERT INTO overview_stats_dirty (bot_id, day, part)
  SELECT DISTINCT o.bot_id, (o.started_at AT TIME ZONE 'UTC')::date, 'steps' FROM old_rows o JOIN bots b ON b.id = o.bot_id WHERE o.version > 0
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "bot_steps_stats_insert" AFTER INSERT ON "bot_steps" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bot_steps_mark_new();
CREATE TRIGGER "bot_steps_stats_update" AFTER UPDATE ON "bot_steps" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bot_steps_mark_new();
CREATE TRIGGER "bot_steps_stats_delete" AFTER DELETE ON "bot_steps" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bot_steps_mark_old();

-- Replies: conversation_messages has no bot_id, so its conversation says which bot (and whether it is a test).
CREATE FUNCTION "reply_stats_mark_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO overview_stats_dirty (bot_id, day, part)
  SELECT DISTINCT c.bot_id, (m.created_at AT TIME ZONE 'UTC')::date, 'replies'
  FROM new_rows m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.direction = 'outbound' AND c.test_version IS NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION "reply_stats_mark_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A conversation deleted with its messages is gone by now; its days are marked by the conversations trigger.
  INSERT INTO overview_stats_dirty (bot_id, day, part)
  SELECT DISTINCT c.bot_id, (m.created_at AT TIME ZONE 'UTC')::date, 'replies'
  FROM old_rows m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.direction = 'outbound' AND c.test_version IS NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "conversation_messages_stats_insert" AFTER INSERT ON "conversation_messages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reply_stats_mark_new();
CREATE TRIGGER "conversation_messages_stats_update" AFTER UPDATE ON "conversation_messages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reply_stats_mark_new();
CREATE TRIGGER "conversation_messages_stats_delete" AFTER DELETE ON "conversation_messages" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION reply_stats_mark_old();

-- Conversations: inserted (their start day) and deleted (that day, and the days their replies may be on).
CREATE FUNCTION "conversation_stats_mark_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO overview_stats_dirty (bot_id, day, part)
  SELECT DISTINCT bot_id, (created_at AT TIME ZONE 'UTC')::date, 'conversations' FROM new_rows WHERE test_version IS NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION "conversation_stats_mark_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO overview_stats_dirty (bot_id, day, part)
  SELECT DISTINCT o.bot_id, (o.created_at AT TIME ZONE 'UTC')::date, 'conversations' FROM old_rows o JOIN bots b ON b.id = o.bot_id WHERE o.test_version IS NULL
  UNION
  -- Its messages are deleted by the cascade (before this runs, and after the conversation row, so the
  -- replies trigger cannot name the bot): every day from its start to today is counted again. Deleting a
  -- conversation is rare (erasure), and a recount is one index range scan per day.
  SELECT DISTINCT o.bot_id, d::date, 'replies'
  FROM old_rows o JOIN bots b ON b.id = o.bot_id, generate_series((o.created_at AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date, interval '1 day') d
  WHERE o.test_version IS NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "conversations_stats_insert" AFTER INSERT ON "conversations" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION conversation_stats_mark_new();
CREATE TRIGGER "conversations_stats_delete" AFTER DELETE ON "conversations" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION conversation_stats_mark_old();

-- What is there already: every day of it marked once, so the first overview call of a range counts it.
INSERT INTO "overview_stats_dirty" (bot_id, day, part)
SELECT DISTINCT bot_id, (started_at AT TIME ZONE 'UTC')::date, 'steps' FROM bot_steps WHERE version > 0
UNION SELECT DISTINCT c.bot_id, (m.created_at AT TIME ZONE 'UTC')::date, 'replies' FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.direction = 'outbound' AND c.test_version IS NULL
UNION SELECT DISTINCT bot_id, (created_at AT TIME ZONE 'UTC')::date, 'conversations' FROM conversations WHERE test_version IS NULL;
