-- The console's overview (docs/console.md#overview).
--
-- Carousel messages are counted through a daily rollup: one row per bot, UTC day, template and sender
-- with the count of messages in each status. A live GROUP BY over `messages` reads every message of
-- the range (a month of a busy bot is millions of rows, seconds); the rollup is a few rows per day.
-- It is kept exact without touching the write paths: statement-level triggers on `messages` only mark
-- the (bot, day) pairs a statement changed as dirty (ON CONFLICT DO NOTHING takes no row lock, so
-- concurrent writers never queue on a hot counter row, as they would if the triggers added to the
-- counts themselves), and a reader recomputes the dirty days of its range before reading (one day is
-- an index range scan of that bot's day). A status that changes weeks later (a late read receipt)
-- marks its day again, so nothing goes stale.
CREATE TABLE "message_daily_stats" (
    "bot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "template_id" UUID NOT NULL,
    "sender_id" UUID NOT NULL,
    "total" INTEGER NOT NULL,
    "pending" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL,
    "delivered" INTEGER NOT NULL,
    "read" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    CONSTRAINT "message_daily_stats_pkey" PRIMARY KEY ("bot_id", "day", "template_id", "sender_id")
);

CREATE TABLE "message_stats_dirty" (
    "bot_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    CONSTRAINT "message_stats_dirty_pkey" PRIMARY KEY ("bot_id", "day")
);

ALTER TABLE "message_daily_stats" ADD CONSTRAINT "message_daily_stats_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "message_stats_dirty" ADD CONSTRAINT "message_stats_dirty_bot_id_fkey" FOREIGN KEY ("bot_id") REFERENCES "bots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "message_stats_mark_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_stats_dirty (bot_id, day)
  SELECT DISTINCT bot_id, (created_at AT TIME ZONE 'UTC')::date FROM new_rows
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION "message_stats_mark_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a deleted bot's rows go with it (its markers too, by the foreign key)
  INSERT INTO message_stats_dirty (bot_id, day)
  SELECT DISTINCT o.bot_id, (o.created_at AT TIME ZONE 'UTC')::date FROM old_rows o JOIN bots b ON b.id = o.bot_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "messages_stats_insert" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_stats_mark_new();
CREATE TRIGGER "messages_stats_update" AFTER UPDATE ON "messages" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_stats_mark_new();
CREATE TRIGGER "messages_stats_delete" AFTER DELETE ON "messages" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION message_stats_mark_old();

-- The messages already there, counted once here (one pass over the table): later changes go through the markers.
INSERT INTO "message_daily_stats" (bot_id, day, template_id, sender_id, total, pending, sent, delivered, read, failed)
SELECT bot_id, (created_at AT TIME ZONE 'UTC')::date, template_id, sender_id, count(*),
       count(*) FILTER (WHERE status IN ('queued', 'processing')), count(*) FILTER (WHERE status = 'sent'),
       count(*) FILTER (WHERE status = 'delivered'), count(*) FILTER (WHERE status = 'read'), count(*) FILTER (WHERE status = 'failed')
FROM messages GROUP BY 1, 2, 3, 4;

-- Read live, by these indexes: conversations started per channel, and the hosted bots' steps of a range.
CREATE INDEX "conversations_bot_id_created_at_idx" ON "conversations"("bot_id", "created_at");
CREATE INDEX "bot_steps_bot_id_started_at_idx" ON "bot_steps"("bot_id", "started_at");
