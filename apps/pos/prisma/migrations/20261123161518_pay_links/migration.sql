-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "pay_link_id" UUID;

-- CreateTable
CREATE TABLE "pay_links" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "merchant_handle" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "min_minor" BIGINT NOT NULL,
    "max_minor" BIGINT NOT NULL,
    "memo" TEXT NOT NULL,
    "max_uses" BIGINT NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMP(3),
    "signature" TEXT NOT NULL,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabled_at" TIMESTAMP(3),

    CONSTRAINT "pay_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signing_keys" (
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "pay_links_organization_id_created_at_id_idx" ON "pay_links"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "orders_pay_link_id_status_expires_at_idx" ON "orders"("pay_link_id", "status", "expires_at");

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_pay_link_id_fkey" FOREIGN KEY ("pay_link_id") REFERENCES "pay_links"("id") ON DELETE SET NULL ON UPDATE CASCADE;
