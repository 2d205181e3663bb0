-- Decision 0036: an order selling a shop's credits, and credits redeemed on orders. Made with ctk-prisma-migration.
-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "credits_token_id" TEXT;

-- CreateTable
CREATE TABLE "order_credit_uses" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "redemption_id" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "units" BIGINT NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "tip_minor" BIGINT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "restored_at" TIMESTAMP(3),

    CONSTRAINT "order_credit_uses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "order_credit_uses_redemption_id_key" ON "order_credit_uses"("redemption_id");

-- CreateIndex
CREATE INDEX "order_credit_uses_order_id_idx" ON "order_credit_uses"("order_id");

-- AddForeignKey
ALTER TABLE "order_credit_uses" ADD CONSTRAINT "order_credit_uses_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
