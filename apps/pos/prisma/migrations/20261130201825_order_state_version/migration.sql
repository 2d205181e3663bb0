-- Decision 0046: each change of an order's state is counted, and its ctk.orders.changed event carries the count.
ALTER TABLE "orders" ADD COLUMN "state_version" BIGINT NOT NULL DEFAULT 0;
