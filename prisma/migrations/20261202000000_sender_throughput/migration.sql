-- AlterTable
ALTER TABLE "channel_senders" ADD COLUMN     "throughput" INTEGER NOT NULL DEFAULT 80;
ALTER TABLE "channel_senders" ADD CONSTRAINT "channel_senders_throughput_check" CHECK ("throughput" BETWEEN 1 AND 1000);
