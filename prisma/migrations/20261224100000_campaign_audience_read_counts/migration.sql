-- What the upload that made a campaign's audience read: its rows (a CSV's lines after its header) and how many
-- of them repeated an earlier row's number (not kept in the ledger), so a draft reopened later shows the same
-- counts as the upload's answer. NULL for audiences uploaded before they were kept.
ALTER TABLE "campaigns" ADD COLUMN "rows_read" INTEGER;
ALTER TABLE "campaigns" ADD COLUMN "rows_duplicate" INTEGER;
