-- CreateTable
CREATE TABLE "organization_wallets" (
    "organization_id" UUID NOT NULL,
    "receiving_address" TEXT,
    "wallet_xpub" TEXT,
    "identity_public_key" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_wallets_pkey" PRIMARY KEY ("organization_id")
);
