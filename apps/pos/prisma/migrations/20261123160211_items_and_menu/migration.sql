-- Items and the menu (docs/decisions/0015-orders-and-payments.md). Existing items take the column defaults:
-- standard tax treatment, fixed price, inventory not tracked, no modifiers. The CHECKs repeat pos's rules
-- (apps/pos/src/domain/create-item.ts, replace-menu.ts) so that no write, whatever its path, stores an item orders cannot price.

-- AlterTable
ALTER TABLE "items" ADD COLUMN     "inventory" BIGINT,
ADD COLUMN     "price_type" TEXT NOT NULL DEFAULT 'fixed',
ADD COLUMN     "tax_rate" TEXT,
ADD COLUMN     "tax_treatment" TEXT NOT NULL DEFAULT 'standard';

-- CreateTable
CREATE TABLE "item_modifiers" (
    "id" UUID NOT NULL,
    "item_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "price_cents" BIGINT NOT NULL,
    "group" TEXT,

    CONSTRAINT "item_modifiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "menus" (
    "organization_id" UUID NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "menus_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "menu_sections" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "menu_sections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "menu_entries" (
    "section_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "item_id" UUID NOT NULL,

    CONSTRAINT "menu_entries_pkey" PRIMARY KEY ("section_id","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "item_modifiers_item_id_position_key" ON "item_modifiers"("item_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "menu_sections_organization_id_position_key" ON "menu_sections"("organization_id", "position");

-- CreateIndex
CREATE INDEX "menu_entries_item_id_idx" ON "menu_entries"("item_id");

-- CreateIndex
CREATE UNIQUE INDEX "menu_entries_section_id_item_id_key" ON "menu_entries"("section_id", "item_id");

-- AddForeignKey
ALTER TABLE "item_modifiers" ADD CONSTRAINT "item_modifiers_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "menu_sections" ADD CONSTRAINT "menu_sections_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "menus"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "menu_entries" ADD CONSTRAINT "menu_entries_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "menu_sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "menu_entries" ADD CONSTRAINT "menu_entries_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "items"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddCheck (by hand: Prisma's schema has no CHECK constraints)
ALTER TABLE "items" ADD CONSTRAINT "items_tax_treatment_check" CHECK ("tax_treatment" IN ('standard', 'reduced', 'exempt'));
ALTER TABLE "items" ADD CONSTRAINT "items_tax_rate_check" CHECK (("tax_treatment" = 'reduced') = ("tax_rate" IS NOT NULL));
ALTER TABLE "items" ADD CONSTRAINT "items_price_type_check" CHECK ("price_type" IN ('fixed', 'minimum', 'top_up'));
ALTER TABLE "items" ADD CONSTRAINT "items_inventory_check" CHECK ("inventory" BETWEEN 0 AND 1000000000);
ALTER TABLE "item_modifiers" ADD CONSTRAINT "item_modifiers_price_cents_check" CHECK ("price_cents" >= 0);
ALTER TABLE "menus" ADD CONSTRAINT "menus_version_check" CHECK ("version" >= 0);
