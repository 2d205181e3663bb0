-- AlterTable
ALTER TABLE "journal_entries" ADD COLUMN     "amount_minor" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "tax_minor" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "journal_entry_items" (
    "id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "line_no" INTEGER NOT NULL,
    "item_id" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "quantity" BIGINT NOT NULL,
    "unit_price_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "total_minor" BIGINT NOT NULL,

    CONSTRAINT "journal_entry_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "journal_entry_items_organization_id_occurred_at_idx" ON "journal_entry_items"("organization_id", "occurred_at");

-- CreateIndex
CREATE UNIQUE INDEX "journal_entry_items_entry_id_line_no_key" ON "journal_entry_items"("entry_id", "line_no");

-- AddForeignKey
ALTER TABLE "journal_entry_items" ADD CONSTRAINT "journal_entry_items_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "journal_entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: an entry's debits sum to the event's total, and its lines on Sales tax payable (2100) are the tax.
UPDATE "journal_entries" e SET
  "amount_minor" = (SELECT COALESCE(SUM(l."debit_minor"), 0) FROM "journal_lines" l WHERE l."entry_id" = e."id"),
  "tax_minor" = (SELECT COALESCE(SUM(l."debit_minor" + l."credit_minor"), 0) FROM "journal_lines" l
                 JOIN "accounts" a ON a."id" = l."account_id" WHERE l."entry_id" = e."id" AND a."code" = '2100');
