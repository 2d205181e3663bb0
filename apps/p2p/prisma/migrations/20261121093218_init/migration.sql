-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "derivation_counters" (
    "organization_id" UUID NOT NULL,
    "xpub" TEXT NOT NULL,
    "next_index" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "derivation_counters_pkey" PRIMARY KEY ("organization_id","xpub")
);

-- CreateTable
CREATE TABLE "paymail_references" (
    "reference" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "paymail" TEXT NOT NULL,
    "satoshis" BIGINT NOT NULL,
    "outputs" JSONB NOT NULL,
    "derivation_index" INTEGER,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_txid" TEXT,
    "paid_at" TIMESTAMP(3),
    "sender_handle" TEXT,
    "sender_pubkey" TEXT,
    "note" TEXT,

    CONSTRAINT "paymail_references_pkey" PRIMARY KEY ("reference")
);

-- CreateTable
CREATE TABLE "spent_txids" (
    "txid" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spent_txids_pkey" PRIMARY KEY ("txid")
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
CREATE UNIQUE INDEX "paymail_references_paid_txid_key" ON "paymail_references"("paid_txid");

-- CreateIndex
CREATE INDEX "paymail_references_organization_id_created_at_idx" ON "paymail_references"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "outbox_events_sent_at_created_at_idx" ON "outbox_events"("sent_at", "created_at");
