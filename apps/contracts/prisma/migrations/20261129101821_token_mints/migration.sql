-- CreateTable
CREATE TABLE "tokens" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "org_handle" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "symbol" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "decimals" INTEGER NOT NULL,
    "supply" BIGINT NOT NULL,
    "owner_address" TEXT NOT NULL,
    "owner_derivation_index" INTEGER,
    "draft" JSONB NOT NULL,
    "hold_expires_at" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "token_id" TEXT,
    "txid" TEXT,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deployed_at" TIMESTAMP(3),

    CONSTRAINT "tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tokens_token_id_key" ON "tokens"("token_id");

-- CreateIndex
CREATE INDEX "tokens_organization_id_created_at_idx" ON "tokens"("organization_id", "created_at");
