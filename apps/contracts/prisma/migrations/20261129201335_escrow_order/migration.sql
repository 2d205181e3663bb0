-- Decision 0038: an escrow that pays a pos order, and whether pos took it as the order's payment
-- AlterTable
ALTER TABLE "escrows" ADD COLUMN     "order" JSONB,
ADD COLUMN     "order_number" TEXT,
ADD COLUMN     "order_paid_at" TIMESTAMP(3),
ADD COLUMN     "order_refusal" TEXT;
