-- Decision 0040: staff disable a referral link
-- AlterTable
ALTER TABLE "referral_links" ADD COLUMN     "disabled_at" TIMESTAMP(3);
