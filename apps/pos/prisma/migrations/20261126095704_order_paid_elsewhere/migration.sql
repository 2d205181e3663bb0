-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "paid_elsewhere_by" TEXT,
ADD COLUMN     "paid_elsewhere_ref" TEXT;
