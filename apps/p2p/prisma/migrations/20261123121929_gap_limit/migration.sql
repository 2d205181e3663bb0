-- AlterTable
ALTER TABLE "derivation_counters" ADD COLUMN     "highest_paid_index" INTEGER NOT NULL DEFAULT -1;

-- AlterTable
ALTER TABLE "paymail_references" ADD COLUMN     "xpub" TEXT;

-- CreateTable
CREATE TABLE "derived_addresses" (
    "organization_id" UUID NOT NULL,
    "xpub" TEXT NOT NULL,
    "derivation_index" INTEGER NOT NULL,
    "held_until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "derived_addresses_pkey" PRIMARY KEY ("organization_id","xpub","derivation_index")
);

-- Counters from before the gap limit: which of their children were paid is not known, so the window
-- starts after the last one handed out (the limit holds from here on).
UPDATE "derivation_counters" SET "highest_paid_index" = "next_index" - 1;
