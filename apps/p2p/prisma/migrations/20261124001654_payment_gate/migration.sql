-- CreateTable
CREATE TABLE "gate_resources" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "price_satoshis" BIGINT NOT NULL,
    "grant_kind" TEXT NOT NULL,
    "grant_calls" INTEGER,
    "grant_seconds" INTEGER,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "gate_resources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gate_payment_requests" (
    "nonce" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "resource_id" UUID NOT NULL,
    "script" TEXT NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "xpub" TEXT,
    "derivation_index" INTEGER,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_txid" TEXT,
    "claimed_at" TIMESTAMP(3),
    "paid_txid" TEXT,

    CONSTRAINT "gate_payment_requests_pkey" PRIMARY KEY ("nonce")
);

-- CreateTable
CREATE TABLE "gate_payments" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "resource_id" UUID NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "txid" TEXT NOT NULL,
    "vout" INTEGER NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "protocol" TEXT NOT NULL,
    "payer" TEXT NOT NULL DEFAULT '',
    "script" TEXT NOT NULL,
    "derivation_index" INTEGER,
    "derivation_prefix" TEXT,
    "derivation_suffix" TEXT,
    "calls" INTEGER,
    "calls_used" INTEGER NOT NULL DEFAULT 1,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gate_payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "p2p_keys" (
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "p2p_keys_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "gate_resources_account_id_created_at_idx" ON "gate_resources"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "gate_payment_requests_paid_txid_key" ON "gate_payment_requests"("paid_txid");

-- CreateIndex
CREATE INDEX "gate_payment_requests_account_id_script_idx" ON "gate_payment_requests"("account_id", "script");

-- CreateIndex
CREATE INDEX "gate_payment_requests_expires_at_idx" ON "gate_payment_requests"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "gate_payments_nonce_key" ON "gate_payments"("nonce");

-- CreateIndex
CREATE UNIQUE INDEX "gate_payments_txid_key" ON "gate_payments"("txid");

-- CreateIndex
CREATE INDEX "gate_payments_account_id_created_at_idx" ON "gate_payments"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "gate_payments_resource_id_idx" ON "gate_payments"("resource_id");

-- CreateIndex
CREATE INDEX "gate_payments_revoked_at_idx" ON "gate_payments"("revoked_at");
