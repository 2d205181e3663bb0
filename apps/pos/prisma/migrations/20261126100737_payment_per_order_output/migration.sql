-- One transaction may pay two orders, each by its own output (decision 0022): a txid is unique per order.
-- DropIndex
DROP INDEX "order_payments_txid_key";

-- DropIndex
DROP INDEX "order_payments_order_id_idx";

-- CreateIndex
CREATE INDEX "order_payments_txid_idx" ON "order_payments"("txid");

-- CreateIndex
CREATE UNIQUE INDEX "order_payments_order_id_txid_key" ON "order_payments"("order_id", "txid");
