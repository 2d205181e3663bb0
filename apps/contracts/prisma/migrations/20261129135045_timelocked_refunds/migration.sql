-- Decision 0039: time-locked refunds, each a 2-of-2 lock and the joint transactions that fund, refund, release or cancel it. Made with ctk-prisma-migration.
-- CreateTable
CREATE TABLE "timelocked_refunds" (
    "id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "org_handle" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "satoshis" BIGINT NOT NULL,
    "buyer_public_key" TEXT NOT NULL,
    "seller_public_key" TEXT NOT NULL,
    "lock_script" TEXT NOT NULL,
    "refund_after" TIMESTAMP(3) NOT NULL,
    "release_address" TEXT NOT NULL,
    "refund_address" TEXT NOT NULL,
    "funding_id" TEXT,
    "refund_id" TEXT,
    "release_id" TEXT,
    "cancel_id" TEXT,
    "closed_at" TIMESTAMP(3),
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "timelocked_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "timelocked_refunds_funding_id_key" ON "timelocked_refunds"("funding_id");

-- CreateIndex
CREATE UNIQUE INDEX "timelocked_refunds_refund_id_key" ON "timelocked_refunds"("refund_id");

-- CreateIndex
CREATE UNIQUE INDEX "timelocked_refunds_release_id_key" ON "timelocked_refunds"("release_id");

-- CreateIndex
CREATE UNIQUE INDEX "timelocked_refunds_cancel_id_key" ON "timelocked_refunds"("cancel_id");

-- CreateIndex
CREATE INDEX "timelocked_refunds_organization_id_created_at_idx" ON "timelocked_refunds"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "timelocked_refunds_closed_at_refund_after_idx" ON "timelocked_refunds"("closed_at", "refund_after");
