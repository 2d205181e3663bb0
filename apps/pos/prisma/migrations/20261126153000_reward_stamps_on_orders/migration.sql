-- Decision 0023: the stamps a reward order spent, so that cancelling it gives them back to its card (a
-- `restore` row of the card's ledger). Orders from before carry 0 (what they spent is not known) and give
-- nothing back. Written by hand, as the migration that put rewards on orders was.
ALTER TABLE "orders" ADD COLUMN "reward_stamps" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "orders" ADD CONSTRAINT "orders_reward_stamps_check" CHECK ("reward_stamps" >= 0);

ALTER TABLE "loyalty_card_activities" DROP CONSTRAINT "loyalty_card_activities_kind_check";
ALTER TABLE "loyalty_card_activities" ADD CONSTRAINT "loyalty_card_activities_kind_check" CHECK (
    ("kind" = 'stamp' AND "stamps" > 0 AND "order_id" IS NOT NULL)
    OR ("kind" = 'redeem' AND "stamps" < 0 AND "order_id" IS NULL)
    OR ("kind" = 'restore' AND "stamps" > 0 AND "order_id" IS NULL)
    OR ("kind" = 'transfer' AND "stamps" = 0 AND "order_id" IS NULL)
);
