-- CreateTable
CREATE TABLE "pos_cards" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "shop_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "public_key" TEXT,
    "label" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pos_cards_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pos_cards_organization_id_created_at_id_idx" ON "pos_cards"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "pos_cards_address_created_at_idx" ON "pos_cards"("address", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "pos_cards_organization_id_address_key" ON "pos_cards"("organization_id", "address");
