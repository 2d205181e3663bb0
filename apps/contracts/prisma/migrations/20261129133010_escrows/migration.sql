-- Decision 0038: escrows, each a 2-of-3 lock funded and settled by joint transactions. Made with ctk-prisma-migration.
-- CreateTable
CREATE TABLE "escrows" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "org_handle" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "satoshis" BIGINT NOT NULL,
    "buyer_public_key" TEXT NOT NULL,
    "seller_public_key" TEXT NOT NULL,
    "arbiter_public_key" TEXT NOT NULL,
    "lock_script" TEXT NOT NULL,
    "release_address" TEXT NOT NULL,
    "refund_address" TEXT NOT NULL,
    "funding_id" TEXT,
    "release_id" TEXT,
    "refund_id" TEXT,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "escrows_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "escrows_funding_id_key" ON "escrows"("funding_id");

-- CreateIndex
CREATE UNIQUE INDEX "escrows_release_id_key" ON "escrows"("release_id");

-- CreateIndex
CREATE UNIQUE INDEX "escrows_refund_id_key" ON "escrows"("refund_id");

-- CreateIndex
CREATE INDEX "escrows_organization_id_created_at_idx" ON "escrows"("organization_id", "created_at");
