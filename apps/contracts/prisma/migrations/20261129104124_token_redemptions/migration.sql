-- CreateTable
CREATE TABLE "token_redemption_addresses" (
    "token_id" TEXT NOT NULL,
    "order_number" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "derivation_index" INTEGER NOT NULL,
    "hold_expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_redemption_addresses_pkey" PRIMARY KEY ("token_id","order_number")
);

-- CreateTable
CREATE TABLE "token_redemptions" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "token_id" TEXT NOT NULL,
    "order_number" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "txid" TEXT NOT NULL,
    "vout" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "token_redemptions_token_id_order_number_idx" ON "token_redemptions"("token_id", "order_number");

-- CreateIndex
CREATE UNIQUE INDEX "token_redemptions_txid_vout_key" ON "token_redemptions"("txid", "vout");
