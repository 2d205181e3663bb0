-- Decision 0046: a checkout follows its pos order's changes (ctk.orders.changed), and the status read answers from
-- this row alone. A checkout made before has followed nothing: `follows_order` false has its first status read ask
-- pos and record what it answers. New rows follow from the start.
ALTER TABLE "checkouts" ADD COLUMN "follows_order" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "paid_satoshis" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "order_version" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "checkouts" ALTER COLUMN "follows_order" SET DEFAULT true;
