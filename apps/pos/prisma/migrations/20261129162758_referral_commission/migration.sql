-- Decision 0040: an order sold through a referral link carries the referrer's commission and where it is paid
-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "commission_address" TEXT,
ADD COLUMN     "commission_minor" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "commission_paid_satoshis" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "commission_satoshis" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "commission_script" TEXT,
ADD COLUMN     "referral_link_id" TEXT;
