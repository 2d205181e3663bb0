-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "checkouts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "public_token" TEXT NOT NULL,
    "order_number" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "currency" CHAR(3) NOT NULL,
    "total_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "paid_at" TIMESTAMP(3),
    "confirmed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_public_token_key" ON "checkouts"("public_token");

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_order_number_key" ON "checkouts"("order_number");

-- CreateIndex
CREATE INDEX "checkouts_organization_id_created_at_idx" ON "checkouts"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "outbox_events_sent_at_created_at_idx" ON "outbox_events"("sent_at", "created_at");

-- AddCheck (by hand: Prisma's schema has no CHECK constraints)
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_status_check" CHECK ("status" IN ('pending', 'paid', 'confirmed', 'expired', 'cancelled'));
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_amounts_check" CHECK ("total_minor" > 0 AND "tax_minor" >= 0 AND "satoshis" > 0);
