-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "card_paid_minor" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "prepaid_card_id" UUID;

-- CreateTable
CREATE TABLE "prepaid_cards" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "merchant_handle" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "balance_minor" BIGINT NOT NULL DEFAULT 0,
    "initial_minor" BIGINT NOT NULL,
    "identifier_hash" TEXT NOT NULL,
    "identifier_sealed" BYTEA NOT NULL,
    "identifier_last4" TEXT NOT NULL,
    "holder_address" TEXT,
    "holder_public_key" TEXT,
    "holder_user_id" UUID,
    "last_sequence" BIGINT NOT NULL DEFAULT 0,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "activated_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prepaid_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prepaid_card_activities" (
    "id" UUID NOT NULL,
    "card_id" UUID NOT NULL,
    "sequence" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "balance_after_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL DEFAULT 0,
    "tip_minor" BIGINT NOT NULL DEFAULT 0,
    "order_id" UUID,
    "restores_id" UUID,
    "occurred_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prepaid_card_activities_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "prepaid_cards_identifier_hash_key" ON "prepaid_cards"("identifier_hash");

-- CreateIndex
CREATE INDEX "prepaid_cards_holder_user_id_created_at_id_idx" ON "prepaid_cards"("holder_user_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "prepaid_cards_organization_id_holder_address_idx" ON "prepaid_cards"("organization_id", "holder_address");

-- CreateIndex
CREATE UNIQUE INDEX "prepaid_card_activities_restores_id_key" ON "prepaid_card_activities"("restores_id");

-- CreateIndex
CREATE INDEX "prepaid_card_activities_order_id_idx" ON "prepaid_card_activities"("order_id");

-- CreateIndex
CREATE UNIQUE INDEX "prepaid_card_activities_card_id_sequence_key" ON "prepaid_card_activities"("card_id", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "orders_prepaid_card_id_key" ON "orders"("prepaid_card_id");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_prepaid_card_id_fkey" FOREIGN KEY ("prepaid_card_id") REFERENCES "prepaid_cards"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prepaid_card_activities" ADD CONSTRAINT "prepaid_card_activities_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "prepaid_cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prepaid_card_activities" ADD CONSTRAINT "prepaid_card_activities_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prepaid_card_activities" ADD CONSTRAINT "prepaid_card_activities_restores_id_fkey" FOREIGN KEY ("restores_id") REFERENCES "prepaid_card_activities"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddCheck (by hand: Prisma's schema has no CHECK constraints). pos validates first: these are the floor.
ALTER TABLE "orders" ADD CONSTRAINT "orders_card_paid_minor_check" CHECK ("card_paid_minor" >= 0 AND "card_paid_minor" <= "total_minor");

ALTER TABLE "prepaid_cards" ADD CONSTRAINT "prepaid_cards_check" CHECK (
    "status" IN ('pending', 'active', 'empty', 'void')
    AND "currency" ~ '^[A-Z]{3}$'
    AND "initial_minor" BETWEEN 1 AND 100000000
    -- Never below zero, never above what it was sold for (a restore gives back only what a use took).
    AND "balance_minor" >= 0
    AND "balance_minor" <= "initial_minor"
    -- Only an active card holds value: pending, empty and void ones hold none.
    AND ("status" = 'active') = ("balance_minor" > 0)
    AND "identifier_hash" ~ '^[0-9a-f]{64}$'
    AND char_length("identifier_last4") = 4
    AND "last_sequence" >= 0
);

ALTER TABLE "prepaid_card_activities" ADD CONSTRAINT "prepaid_card_activities_check" CHECK (
    "sequence" >= 1
    AND "balance_after_minor" >= 0
    AND "tax_minor" >= 0
    AND "tip_minor" >= 0
    AND "tax_minor" + "tip_minor" <= abs("amount_minor")
    AND CASE "kind"
        WHEN 'issue' THEN "amount_minor" > 0 AND "order_id" IS NOT NULL
        WHEN 'redeem' THEN "amount_minor" < 0 AND "order_id" IS NOT NULL
        WHEN 'restore' THEN "amount_minor" > 0 AND "order_id" IS NOT NULL
        WHEN 'transfer' THEN "amount_minor" = 0
        ELSE false
    END
    AND ("kind" = 'restore') = ("restores_id" IS NOT NULL)
);

-- The ledger is append-only: pos never updates nor deletes an activity, and the database refuses it too.
-- The migration runner cuts scripts at every semicolon, so the body spells its own as \073 in an E'' string.
CREATE FUNCTION "prepaid_card_activities_append_only"() RETURNS trigger LANGUAGE plpgsql
    AS E'BEGIN RAISE EXCEPTION ''prepaid_card_activities is append-only: % refused'', TG_OP\073 END\073';

CREATE TRIGGER "prepaid_card_activities_append_only"
    BEFORE UPDATE OR DELETE ON "prepaid_card_activities"
    FOR EACH ROW EXECUTE FUNCTION "prepaid_card_activities_append_only"();
