-- Decision 0023: a loyalty reward redeemed on an order is a discount the order carries (its value and what
-- it is), and the program says what a reward is worth. Written by hand: the schema kept beside the last
-- migration predates the loyalty and card tables, so a diff against it would create them again.
ALTER TABLE "orders" ADD COLUMN "reward_minor" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "reward" TEXT NOT NULL DEFAULT '';
ALTER TABLE "orders" ADD CONSTRAINT "orders_reward_minor_check" CHECK ("reward_minor" >= 0);

ALTER TABLE "loyalty_programs" ADD COLUMN "reward_value_minor" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "loyalty_programs" ADD CONSTRAINT "loyalty_programs_reward_value_minor_check"
  CHECK ("reward_value_minor" >= 0 AND "reward_value_minor" <= 1000000000000);
