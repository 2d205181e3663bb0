-- CreateTable
CREATE TABLE "provider_accounts" (
    "organization_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "secret_sealed" BYTEA NOT NULL,
    "secret_last4" TEXT NOT NULL,
    "previous_secret_sealed" BYTEA,
    "previous_valid_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_accounts_pkey" PRIMARY KEY ("organization_id","provider")
);

-- CreateTable
CREATE TABLE "provider_events" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "checkout_token" TEXT NOT NULL DEFAULT '',
    "checkout_id" UUID,
    "payload" BYTEA NOT NULL,
    "signature" TEXT NOT NULL DEFAULT '',
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_payments" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "checkout_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "payment_ref" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "tax_minor" BIGINT NOT NULL,
    "refunded_minor" BIGINT NOT NULL DEFAULT 0,
    "refunded_tax_minor" BIGINT NOT NULL DEFAULT 0,
    "refund_count" INTEGER NOT NULL DEFAULT 0,
    "paid_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "commerce_keys" (
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commerce_keys_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "provider_events_organization_id_outcome_received_at_idx" ON "provider_events"("organization_id", "outcome", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "provider_events_organization_id_provider_event_id_key" ON "provider_events"("organization_id", "provider", "event_id");

-- CreateIndex
CREATE UNIQUE INDEX "provider_payments_checkout_id_key" ON "provider_payments"("checkout_id");

-- CreateIndex
CREATE UNIQUE INDEX "provider_payments_organization_id_provider_payment_ref_key" ON "provider_payments"("organization_id", "provider", "payment_ref");

-- AddCheck (by hand: Prisma's schema has no CHECK constraints)
ALTER TABLE "provider_accounts" ADD CONSTRAINT "provider_accounts_provider_check" CHECK ("provider" IN ('card-provider', 'wallet-provider'));
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_provider_check" CHECK ("provider" IN ('card-provider', 'wallet-provider'));
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_outcome_check" CHECK ("outcome" IN ('applied', 'parked', 'ignored'));
ALTER TABLE "provider_payments" ADD CONSTRAINT "provider_payments_provider_check" CHECK ("provider" IN ('card-provider', 'wallet-provider'));
ALTER TABLE "provider_payments" ADD CONSTRAINT "provider_payments_amounts_check"
  CHECK ("amount_minor" > 0 AND "tax_minor" >= 0 AND "tax_minor" <= "amount_minor"
         AND "refunded_minor" >= 0 AND "refunded_minor" <= "amount_minor"
         AND "refunded_tax_minor" >= 0 AND "refunded_tax_minor" <= "tax_minor");
