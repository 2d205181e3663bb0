-- AlterTable
ALTER TABLE "derived_addresses" ADD COLUMN     "anonymous" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "purpose" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "spent_txids" DROP CONSTRAINT "spent_txids_pkey",
ADD COLUMN     "vout" INTEGER NOT NULL DEFAULT -1,
ADD CONSTRAINT "spent_txids_pkey" PRIMARY KEY ("txid", "vout");
