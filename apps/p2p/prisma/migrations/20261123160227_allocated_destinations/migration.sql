-- CreateTable
CREATE TABLE "allocated_destinations" (
    "organization_id" UUID NOT NULL,
    "script" TEXT NOT NULL,
    "xpub" TEXT NOT NULL,
    "derivation_index" INTEGER NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "allocated_destinations_pkey" PRIMARY KEY ("organization_id","script")
);
