-- Decision 0040: referral links, and checkouts through them paid into a covenant
-- CreateTable
CREATE TABLE "referral_links" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "org_handle" TEXT NOT NULL,
    "item_id" UUID NOT NULL,
    "item_name" TEXT NOT NULL,
    "referrer_name" TEXT NOT NULL,
    "referrer_address" TEXT NOT NULL,
    "commission_basis_points" INTEGER NOT NULL,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "referral_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referral_checkouts" (
    "id" TEXT NOT NULL,
    "referral_link_id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "org_handle" TEXT NOT NULL,
    "order_number" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "total_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "commission_minor" BIGINT NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "commission_satoshis" BIGINT NOT NULL,
    "fee_satoshis" BIGINT NOT NULL,
    "outputs" JSONB NOT NULL,
    "covenant_script" TEXT NOT NULL,
    "funding_transaction" TEXT,
    "funding_txid" TEXT,
    "spend_txid" TEXT,
    "paid_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "referral_checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "referral_links_organization_id_created_at_idx" ON "referral_links"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "referral_checkouts_order_number_key" ON "referral_checkouts"("order_number");

-- CreateIndex
CREATE UNIQUE INDEX "referral_checkouts_funding_txid_key" ON "referral_checkouts"("funding_txid");

-- CreateIndex
CREATE INDEX "referral_checkouts_organization_id_created_at_idx" ON "referral_checkouts"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "referral_checkouts_referral_link_id_idx" ON "referral_checkouts"("referral_link_id");

-- AddForeignKey
ALTER TABLE "referral_checkouts" ADD CONSTRAINT "referral_checkouts_referral_link_id_fkey" FOREIGN KEY ("referral_link_id") REFERENCES "referral_links"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
