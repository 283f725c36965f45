-- A bot's or an agent's reply sent with an Idempotency-Key: the key (scoped by the conversation), unique, so a
-- repeat finds the reply instead of making a second one.
ALTER TABLE "conversation_messages" ADD COLUMN "reply_key" TEXT;
CREATE UNIQUE INDEX "conversation_messages_reply_key_key" ON "conversation_messages"("reply_key");
