-- CreateTable
CREATE TABLE "stablecoin_intents" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "org_handle" TEXT NOT NULL,
    "order_number" TEXT NOT NULL,
    "checkout_token" TEXT,
    "description" TEXT NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "tax_cents" BIGINT NOT NULL,
    "token_id" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "decimals" INTEGER NOT NULL,
    "token_amount" BIGINT NOT NULL,
    "cosigner_key" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "derivation_index" INTEGER NOT NULL,
    "hold_expires_at" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'requires_payment',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "succeeded_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stablecoin_intents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stablecoin_transfers" (
    "txid" TEXT NOT NULL,
    "intent_id" TEXT NOT NULL,
    "vout" INTEGER NOT NULL,
    "token_amount" BIGINT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stablecoin_transfers_pkey" PRIMARY KEY ("txid","vout")
);

-- CreateIndex
CREATE INDEX "stablecoin_intents_organization_id_created_at_idx" ON "stablecoin_intents"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "stablecoin_intents_organization_id_order_number_key" ON "stablecoin_intents"("organization_id", "order_number");

-- CreateIndex
CREATE INDEX "stablecoin_transfers_intent_id_idx" ON "stablecoin_transfers"("intent_id");

-- AddForeignKey
ALTER TABLE "stablecoin_transfers" ADD CONSTRAINT "stablecoin_transfers_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "stablecoin_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The states an intent is kept in (expired is read from expires_at), and a transfer's outcomes
ALTER TABLE "stablecoin_intents" ADD CONSTRAINT "stablecoin_intents_status_check" CHECK ("status" IN ('requires_payment', 'succeeded', 'canceled'));
ALTER TABLE "stablecoin_intents" ADD CONSTRAINT "stablecoin_intents_amounts_check" CHECK ("amount_cents" > 0 AND "tax_cents" >= 0 AND "token_amount" > 0);
ALTER TABLE "stablecoin_transfers" ADD CONSTRAINT "stablecoin_transfers_outcome_check" CHECK ("outcome" IN ('accepted', 'refund_due'));
-- At most one transfer pays an intent
CREATE UNIQUE INDEX "stablecoin_transfers_one_accepted" ON "stablecoin_transfers"("intent_id") WHERE "outcome" = 'accepted';
