-- AlterTable
ALTER TABLE "bots" ADD COLUMN     "trigger_quota_per_minute" INTEGER;
