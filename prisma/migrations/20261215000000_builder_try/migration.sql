-- The builder's try-it conversations (docs/console.md#try-it): the draft is snapshotted as a test version
-- (a negative version number in bot_versions, never listed, published or rolled back to) and the
-- conversation runs on it; the overview and the inbox leave such conversations out.
ALTER TABLE "conversations" ADD COLUMN "test_version" INTEGER;
