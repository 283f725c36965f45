-- Each conversation message's place in its own conversation (1 for the first), what the hosted chat page
-- orders by. The page showed `seq`, which counts every message of every bot on the platform, so an end
-- user could watch it grow and tell the platform's traffic. A counter per conversation shows nothing
-- beyond the conversation, and, unlike a rank counted on read, never changes: not when the retention
-- sweep deletes the conversation's oldest messages, not when two inserts commit out of seq order.
--
-- A BEFORE INSERT trigger hands out the places, so every statement that records a message (inbound,
-- replies, the hosted runtime's, the builder's try-it) gets one without naming it. The counter is a row
-- of its own table: statements that insert messages and update the conversation's row in one go (the
-- runtime's record) would fail on a trigger that updated that row too. The trigger locks the
-- conversation's row, then the counter's, both until the inserting transaction ends, so a conversation's
-- places go in commit order; always in that order, the one the writers that touch the conversation
-- before inserting already take. A place whose insert is skipped (ON CONFLICT DO NOTHING on a repeated
-- provider id) or rolled back leaves a gap: places are increasing, not contiguous.
--
-- Cost: a column added without a rewrite (a constant default), one pass over conversation_messages to
-- number the existing rows (row_number in the (conversation_id, seq) index's order), and a row per
-- conversation with messages. No new index on conversation_messages: the page reads messages by seq as
-- before, and a conversation's places rise with its seq.
ALTER TABLE "conversation_messages" ADD COLUMN "position" INTEGER NOT NULL DEFAULT 0;

UPDATE "conversation_messages" AS m SET "position" = r."position"
  FROM (SELECT "id", row_number() OVER (PARTITION BY "conversation_id" ORDER BY "seq")::int AS "position" FROM "conversation_messages") AS r
  WHERE m."id" = r."id";

CREATE TABLE "conversation_positions" (
  "conversation_id" UUID NOT NULL,
  "last_position" INTEGER NOT NULL,
  CONSTRAINT "conversation_positions_pkey" PRIMARY KEY ("conversation_id"),
  CONSTRAINT "conversation_positions_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "conversation_positions" ("conversation_id", "last_position")
  SELECT "conversation_id", max("position") FROM "conversation_messages" GROUP BY "conversation_id";

CREATE FUNCTION "conversation_message_position"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The conversation's row first, as the statements that upsert or touch it before inserting the message
  -- do: a counter locked before it would deadlock with them (the runtime's record inserts, then touches).
  PERFORM 1 FROM "conversations" WHERE "id" = NEW."conversation_id" FOR NO KEY UPDATE;
  INSERT INTO "conversation_positions" AS p ("conversation_id", "last_position") VALUES (NEW."conversation_id", 1)
    ON CONFLICT ("conversation_id") DO UPDATE SET "last_position" = p."last_position" + 1
    RETURNING p."last_position" INTO NEW."position";
  RETURN NEW;
END
$$;

CREATE TRIGGER "conversation_messages_position" BEFORE INSERT ON "conversation_messages"
  FOR EACH ROW EXECUTE FUNCTION "conversation_message_position"();
