-- Decision 0033: refunds of a paid order, and the refund address a BIP270 payment gave. Made with
-- ctk-prisma-migration, the CHECKs at the end written by hand.
-- AlterTable
ALTER TABLE "order_payments" ADD COLUMN     "refund_to" TEXT;

-- CreateTable
CREATE TABLE "order_refunds" (
    "id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "amount_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "tip_minor" BIGINT NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "address" TEXT NOT NULL,
    "script" TEXT NOT NULL,
    "lines" JSONB NOT NULL DEFAULT '[]',
    "reason" TEXT NOT NULL DEFAULT '',
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "claimed_txid" TEXT,
    "claimed_at" TIMESTAMP(3),
    "paid_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),
    "txid" CHAR(64),

    CONSTRAINT "order_refunds_pkey" PRIMARY KEY ("id")
);


-- CreateIndex
CREATE INDEX "order_refunds_order_id_created_at_idx" ON "order_refunds"("order_id", "created_at");

-- CreateIndex
CREATE INDEX "order_refunds_txid_idx" ON "order_refunds"("txid");

-- AddForeignKey
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A refund gives back something, never more than it says is tax and tip, and only its status's facts.
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_amounts_check" CHECK (
    "amount_minor" > 0 AND "tax_minor" >= 0 AND "tip_minor" >= 0 AND "tax_minor" + "tip_minor" <= "amount_minor" AND "satoshis" > 0
);
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_status_check" CHECK (
    ("status" = 'pending' AND "txid" IS NULL AND "paid_at" IS NULL AND "cancelled_at" IS NULL)
    OR ("status" = 'paid' AND "txid" IS NOT NULL AND "paid_at" IS NOT NULL AND "cancelled_at" IS NULL)
    OR ("status" = 'cancelled' AND "txid" IS NULL AND "paid_at" IS NULL AND "cancelled_at" IS NOT NULL)
);
