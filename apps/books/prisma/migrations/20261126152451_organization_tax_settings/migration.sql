-- CreateTable
CREATE TABLE "organization_tax_settings" (
    "organization_id" UUID NOT NULL,
    "jurisdiction" TEXT,
    "prices_include_tax" BOOLEAN,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_tax_settings_pkey" PRIMARY KEY ("organization_id")
);
