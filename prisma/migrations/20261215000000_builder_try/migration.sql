-- The builder's try-it conversations (docs/console.md#try-it): the draft is snapshotted as a test version
-- (a negative version number in bot_versions, never listed, published or rolled back to) and the
-- conversation runs on it; the overview and the inbox leave such conversations out.
ALTER TABLE "conversations" ADD COLUMN "test_version" INTEGER;
-- Test versions are numbered -nextval: never reused, as the runtime caches a version by its number for
-- good (a number counted down from a bot's lowest would come back once its tests were removed).
CREATE SEQUENCE "bot_test_version_seq" AS integer;
