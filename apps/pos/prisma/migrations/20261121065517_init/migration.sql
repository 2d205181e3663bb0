-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "items" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "price_cents" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "category" TEXT,
    "sku" TEXT,
    "available" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "items_organization_id_created_at_id_idx" ON "items"("organization_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "items_organization_id_sku_key" ON "items"("organization_id", "sku");
