-- A carousel message's send lease: a second run of its job (one whose lock lapsed while the first still
-- sends) waits for it instead of sending the message again. NULL for existing rows never holds a claim back.
ALTER TABLE "messages" ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
