-- AlterTable: the part of an entry's amount that is a tip (posted to 2400 Tips payable), and where its
-- exchange rate came from. Entries posted before had neither: no tip, source unknown.
ALTER TABLE "journal_entries" ADD COLUMN     "rate_source" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "tip_minor" BIGINT NOT NULL DEFAULT 0;
