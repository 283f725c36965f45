-- A reply's send lease: a second run of its job (one whose lock lapsed while the first still sends) waits
-- for it instead of sending the reply again. NULL for every existing row: nothing is mid-send across an upgrade
-- that stops the workers, and a NULL lease never holds a claim back.
ALTER TABLE "conversation_messages" ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
