-- Decision 0037: transactions partners sign together, and their signatures. Made with ctk-prisma-migration.
-- CreateTable
CREATE TABLE "joint_transactions" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "org_handle" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'collecting',
    "transaction" TEXT NOT NULL,
    "locks" JSONB NOT NULL,
    "fee_satoshis" BIGINT NOT NULL,
    "txid" TEXT,
    "signed_transaction" TEXT,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL,
    "broadcast_at" TIMESTAMP(3),

    CONSTRAINT "joint_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "joint_signatures" (
    "joint_id" TEXT NOT NULL,
    "input_index" INTEGER NOT NULL,
    "public_key" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "joint_signatures_pkey" PRIMARY KEY ("joint_id","input_index","public_key")
);

-- CreateIndex
CREATE INDEX "joint_transactions_organization_id_created_at_idx" ON "joint_transactions"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "joint_signatures" ADD CONSTRAINT "joint_signatures_joint_id_fkey" FOREIGN KEY ("joint_id") REFERENCES "joint_transactions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
