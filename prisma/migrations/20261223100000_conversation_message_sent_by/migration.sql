-- Who sent an outbound conversation message: the member who answered from the console's inbox (their user
-- id), or NULL for the bot's own (the hosted runtime, or an outside bot through the reply API) and for every
-- inbound message. No foreign key, as with audit_entries.user_id: a reply stays an agent's after the
-- account is deleted (the inbox then names "a former member"), where ON DELETE SET NULL would make it the bot's.
ALTER TABLE "conversation_messages" ADD COLUMN "sent_by_user_id" UUID;
