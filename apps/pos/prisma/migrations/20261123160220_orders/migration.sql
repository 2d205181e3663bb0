-- CreateTable
CREATE TABLE "orders" (
    "id" UUID NOT NULL,
    "order_number" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "merchant_handle" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "currency" CHAR(3) NOT NULL,
    "subtotal_minor" BIGINT NOT NULL,
    "discount_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "tip_minor" BIGINT NOT NULL,
    "total_minor" BIGINT NOT NULL,
    "prices_include_tax" BOOLEAN NOT NULL,
    "tax_jurisdiction" TEXT NOT NULL DEFAULT '',
    "standard_tax_rate" TEXT NOT NULL DEFAULT '',
    "exchange_rate" TEXT NOT NULL,
    "rate_source" TEXT NOT NULL,
    "rate_at" TIMESTAMP(3) NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "paid_satoshis" BIGINT NOT NULL DEFAULT 0,
    "flags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "address" TEXT NOT NULL,
    "script" TEXT NOT NULL,
    "derivation_index" INTEGER,
    "receipt_merchant" TEXT NOT NULL,
    "lines_hash" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "paid_at" TIMESTAMP(3),
    "confirmed_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_lines" (
    "id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "item_id" UUID,
    "name" TEXT NOT NULL,
    "quantity" BIGINT NOT NULL,
    "unit_price_minor" BIGINT NOT NULL,
    "modifiers" JSONB NOT NULL DEFAULT '[]',
    "discount_minor" BIGINT NOT NULL,
    "tax_treatment" TEXT NOT NULL,
    "tax_rate" TEXT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "total_minor" BIGINT NOT NULL,

    CONSTRAINT "order_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_payments" (
    "id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "txid" CHAR(64) NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "via" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "block_height" INTEGER,
    "late" BOOLEAN NOT NULL DEFAULT false,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_payments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "orders_order_number_key" ON "orders"("order_number");

-- CreateIndex
CREATE INDEX "orders_status_expires_at_idx" ON "orders"("status", "expires_at");

-- CreateIndex
CREATE INDEX "orders_organization_id_created_at_idx" ON "orders"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "order_lines_order_id_position_key" ON "order_lines"("order_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "order_payments_txid_key" ON "order_payments"("txid");

-- CreateIndex
CREATE INDEX "order_payments_order_id_idx" ON "order_payments"("order_id");

-- AddForeignKey
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_payments" ADD CONSTRAINT "order_payments_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
