-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'items';

-- CreateTable
CREATE TABLE "ticket_events" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "venue" TEXT NOT NULL,
    "starts_at" TIMESTAMP(3) NOT NULL,
    "ends_at" TIMESTAMP(3) NOT NULL,
    "position" INTEGER NOT NULL,
    "removed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ticket_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket_types" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "price_minor" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "capacity" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "removed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ticket_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ticket_holds" (
    "id" UUID NOT NULL,
    "checkout_id" UUID,
    "ticket_type_id" UUID NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price_minor" BIGINT NOT NULL,
    "event_name" TEXT NOT NULL,
    "type_name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'held',
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ticket_holds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tickets" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "checkout_id" UUID NOT NULL,
    "ticket_type_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "checked_in_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tickets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ticket_events_organization_id_position_idx" ON "ticket_events"("organization_id", "position");

-- CreateIndex
CREATE INDEX "ticket_types_organization_id_idx" ON "ticket_types"("organization_id");

-- CreateIndex
CREATE INDEX "ticket_holds_ticket_type_id_state_idx" ON "ticket_holds"("ticket_type_id", "state");

-- CreateIndex
CREATE INDEX "ticket_holds_checkout_id_idx" ON "ticket_holds"("checkout_id");

-- CreateIndex
CREATE UNIQUE INDEX "tickets_code_key" ON "tickets"("code");

-- CreateIndex
CREATE INDEX "tickets_checkout_id_idx" ON "tickets"("checkout_id");

-- CreateIndex
CREATE INDEX "checkouts_organization_id_kind_created_at_idx" ON "checkouts"("organization_id", "kind", "created_at");

-- AddForeignKey
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "ticket_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket_holds" ADD CONSTRAINT "ticket_holds_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ticket_holds" ADD CONSTRAINT "ticket_holds_ticket_type_id_fkey" FOREIGN KEY ("ticket_type_id") REFERENCES "ticket_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_checkout_id_fkey" FOREIGN KEY ("checkout_id") REFERENCES "checkouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_ticket_type_id_fkey" FOREIGN KEY ("ticket_type_id") REFERENCES "ticket_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddCheck (by hand: Prisma's schema has no CHECK constraints)
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_kind_check" CHECK ("kind" IN ('items', 'tickets'));
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_dates_check" CHECK ("ends_at" > "starts_at");
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_amounts_check" CHECK ("price_minor" > 0 AND "capacity" >= 0);
ALTER TABLE "ticket_holds" ADD CONSTRAINT "ticket_holds_state_check" CHECK ("state" IN ('held', 'sold', 'released', 'unfulfilled'));
ALTER TABLE "ticket_holds" ADD CONSTRAINT "ticket_holds_quantity_check" CHECK ("quantity" > 0);
