-- AlterTable
ALTER TABLE "paymail_references" ADD COLUMN     "claimed_at" TIMESTAMP(3),
ADD COLUMN     "claimed_txid" TEXT;
