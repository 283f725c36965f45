-- CreateTable
CREATE TABLE "held_provider_statuses" (
    "wamid" TEXT NOT NULL,
    "status" "MessageStatus" NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),
    "read_at" TIMESTAMPTZ(3),
    "error_code" TEXT,
    "error_text" TEXT,
    "held_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "held_provider_statuses_pkey" PRIMARY KEY ("wamid")
);

-- CreateIndex
CREATE INDEX "held_provider_statuses_held_at_idx" ON "held_provider_statuses"("held_at");
