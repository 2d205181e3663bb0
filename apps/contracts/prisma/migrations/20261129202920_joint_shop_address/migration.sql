-- Decision 0037: what a joint transaction of its own pays the shop posts to its books
-- AlterTable
ALTER TABLE "joint_transactions" ADD COLUMN     "shop_address" TEXT;
