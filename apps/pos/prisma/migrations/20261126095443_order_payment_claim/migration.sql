-- A BIP270 payment claims the order while it is verified and broadcast (decision 0015).
-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "claimed_at" TIMESTAMP(3),
ADD COLUMN     "claimed_txid" TEXT;
