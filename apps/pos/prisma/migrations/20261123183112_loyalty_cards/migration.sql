-- Loyalty programs and cards (docs/decisions/0017-customer-cards.md, "Loyalty"). The CHECKs repeat pos's rules
-- (apps/pos/src/loyalty/) so that no write, whatever its path, leaves a card below 0 stamps or a ledger row of no kind.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "loyalty_card_id" UUID;

-- AlterTable
ALTER TABLE "order_payments" ADD COLUMN     "receipt_vout" INTEGER;

-- CreateTable
CREATE TABLE "loyalty_programs" (
    "organization_id" UUID NOT NULL,
    "stamp_rule" TEXT NOT NULL,
    "amount_per_stamp_minor" BIGINT NOT NULL,
    "stamps_for_reward" INTEGER NOT NULL,
    "reward" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL,
    "version" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "loyalty_programs_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "loyalty_cards" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "merchant_handle" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "stamps" INTEGER NOT NULL DEFAULT 0,
    "rewards_redeemed" INTEGER NOT NULL DEFAULT 0,
    "activity_count" INTEGER NOT NULL DEFAULT 0,
    "identifier_hash" CHAR(64) NOT NULL,
    "identifier_sealed" BYTEA NOT NULL,
    "identifier_last4" CHAR(4) NOT NULL,
    "holder_address" TEXT,
    "holder_public_key" TEXT,
    "holder_user_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "loyalty_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "loyalty_card_activities" (
    "id" UUID NOT NULL,
    "card_id" UUID NOT NULL,
    "sequence" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "stamps" INTEGER NOT NULL,
    "stamps_after" INTEGER NOT NULL,
    "order_id" UUID,
    "receipt_txid" CHAR(64),
    "receipt_vout" INTEGER,
    "occurred_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "loyalty_card_activities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "loyalty_cards_identifier_hash_key" ON "loyalty_cards"("identifier_hash");

-- CreateIndex
CREATE INDEX "loyalty_cards_holder_user_id_created_at_id_idx" ON "loyalty_cards"("holder_user_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "loyalty_cards_organization_id_holder_user_id_key" ON "loyalty_cards"("organization_id", "holder_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "loyalty_cards_organization_id_holder_address_key" ON "loyalty_cards"("organization_id", "holder_address");

-- CreateIndex
CREATE UNIQUE INDEX "loyalty_card_activities_order_id_key" ON "loyalty_card_activities"("order_id");

-- CreateIndex
CREATE UNIQUE INDEX "loyalty_card_activities_receipt_txid_key" ON "loyalty_card_activities"("receipt_txid");

-- CreateIndex
CREATE UNIQUE INDEX "loyalty_card_activities_card_id_sequence_key" ON "loyalty_card_activities"("card_id", "sequence");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_loyalty_card_id_fkey" FOREIGN KEY ("loyalty_card_id") REFERENCES "loyalty_cards"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "loyalty_card_activities" ADD CONSTRAINT "loyalty_card_activities_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "loyalty_cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "loyalty_card_activities" ADD CONSTRAINT "loyalty_card_activities_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddCheck (by hand: Prisma's schema has no CHECK constraints). pos validates first: this is the floor.
ALTER TABLE "loyalty_programs" ADD CONSTRAINT "loyalty_programs_rule_check" CHECK (
    ("stamp_rule" = 'visit' AND "amount_per_stamp_minor" = 0)
    OR ("stamp_rule" = 'amount' AND "amount_per_stamp_minor" BETWEEN 1 AND 1000000000000)
);
ALTER TABLE "loyalty_programs" ADD CONSTRAINT "loyalty_programs_stamps_for_reward_check" CHECK ("stamps_for_reward" BETWEEN 1 AND 100);
ALTER TABLE "loyalty_programs" ADD CONSTRAINT "loyalty_programs_reward_check" CHECK (char_length("reward") BETWEEN 1 AND 120);
ALTER TABLE "loyalty_programs" ADD CONSTRAINT "loyalty_programs_version_check" CHECK ("version" >= 1);
ALTER TABLE "loyalty_cards" ADD CONSTRAINT "loyalty_cards_status_check" CHECK ("status" IN ('active'));
ALTER TABLE "loyalty_cards" ADD CONSTRAINT "loyalty_cards_stamps_check" CHECK ("stamps" >= 0);
ALTER TABLE "loyalty_cards" ADD CONSTRAINT "loyalty_cards_rewards_redeemed_check" CHECK ("rewards_redeemed" >= 0);
ALTER TABLE "loyalty_cards" ADD CONSTRAINT "loyalty_cards_activity_count_check" CHECK ("activity_count" >= 0);
ALTER TABLE "loyalty_card_activities" ADD CONSTRAINT "loyalty_card_activities_kind_check" CHECK (
    ("kind" = 'stamp' AND "stamps" > 0 AND "order_id" IS NOT NULL)
    OR ("kind" = 'redeem' AND "stamps" < 0 AND "order_id" IS NULL)
    OR ("kind" = 'transfer' AND "stamps" = 0 AND "order_id" IS NULL)
);
ALTER TABLE "loyalty_card_activities" ADD CONSTRAINT "loyalty_card_activities_receipt_check" CHECK (
    ("receipt_txid" IS NULL) = ("receipt_vout" IS NULL) AND ("receipt_txid" IS NULL OR "kind" = 'stamp') AND "receipt_vout" >= 0
);
ALTER TABLE "loyalty_card_activities" ADD CONSTRAINT "loyalty_card_activities_sequence_check" CHECK ("sequence" >= 1 AND "stamps_after" >= 0);

-- The stamp ledger is append-only: the code never updates or deletes a row, and the database refuses to.
-- The migration runner splits a script at every semicolon (@prisma/adapter-pg's executeScript), so the body spells
-- its semicolons as \073 in an escape string.
CREATE FUNCTION "loyalty_card_activities_append_only"() RETURNS trigger LANGUAGE plpgsql
    AS E'BEGIN RAISE EXCEPTION ''loyalty_card_activities is append-only: % refused'', TG_OP\073 END\073';
CREATE TRIGGER "loyalty_card_activities_append_only" BEFORE UPDATE OR DELETE ON "loyalty_card_activities"
    FOR EACH ROW EXECUTE FUNCTION "loyalty_card_activities_append_only"();
