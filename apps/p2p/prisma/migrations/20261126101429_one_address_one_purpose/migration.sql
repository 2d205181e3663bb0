-- AlterTable
ALTER TABLE "derived_addresses" ADD COLUMN     "anonymous" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "purpose" TEXT NOT NULL DEFAULT '';

-- AlterTable: an output pays one claim (decision 0022). Rows from before are kept with vout -1: the whole
-- transaction paid that claim.
ALTER TABLE "spent_txids" DROP CONSTRAINT "spent_txids_pkey",
ADD COLUMN     "vout" INTEGER NOT NULL DEFAULT -1,
ADD CONSTRAINT "spent_txids_pkey" PRIMARY KEY ("txid", "vout");

-- AlterTable: the price each payment was asked, from its payment request (x402, BRC-121 by script) or,
-- for a BRC-42 payment, its resource (prices are not changed once set).
ALTER TABLE "gate_payments" ADD COLUMN     "price_satoshis" BIGINT;
UPDATE "gate_payments" AS p SET "price_satoshis" = r."satoshis" FROM "gate_payment_requests" AS r WHERE r."nonce" = p."nonce";
UPDATE "gate_payments" AS p SET "price_satoshis" = g."price_satoshis" FROM "gate_resources" AS g
  WHERE p."price_satoshis" IS NULL AND g."id" = p."resource_id";
UPDATE "gate_payments" SET "price_satoshis" = "satoshis" WHERE "price_satoshis" IS NULL;
ALTER TABLE "gate_payments" ALTER COLUMN "price_satoshis" SET NOT NULL;
