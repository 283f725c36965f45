-- The body fingerprint of a trigger sent with an Idempotency-Key, kept with the message that holds the key.
ALTER TABLE "messages" ADD COLUMN "idempotency_fingerprint" TEXT;
