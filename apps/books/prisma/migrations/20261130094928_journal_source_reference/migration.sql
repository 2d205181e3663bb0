-- Decision 0045: the source's own name for what was paid (an order number), kept with its entry for the ledger to answer
ALTER TABLE "journal_entries" ADD COLUMN "source_reference" TEXT NOT NULL DEFAULT '';
