-- CreateTable
CREATE TABLE "site_settings" (
    "organization_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "sections" TEXT[],
    "color_background" TEXT NOT NULL,
    "color_text" TEXT NOT NULL,
    "color_accent" TEXT NOT NULL,
    "color_accent_text" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "tagline" TEXT NOT NULL DEFAULT '',
    "about" TEXT NOT NULL DEFAULT '',
    "target_kind" TEXT NOT NULL DEFAULT 'folder',
    "s3_endpoint" TEXT,
    "s3_bucket" TEXT,
    "s3_region" TEXT,
    "s3_prefix" TEXT,
    "s3_access_key_id" TEXT,
    "s3_secret_sealed" BYTEA,
    "s3_secret_last4" TEXT,
    "publishing_until" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_settings_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "site_publications" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "target" TEXT NOT NULL,
    "manifest_digest" TEXT NOT NULL,
    "files_uploaded" INTEGER NOT NULL,
    "files_unchanged" INTEGER NOT NULL,
    "files_deleted" INTEGER NOT NULL,
    "site_url" TEXT NOT NULL,
    "published_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "site_publications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "site_publications_organization_id_published_at_idx" ON "site_publications"("organization_id", "published_at");

-- The target is one of two kinds, and an s3 target names its bucket and keeps its secret sealed
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_target_kind_check" CHECK ("target_kind" IN ('folder', 's3'));
ALTER TABLE "site_settings" ADD CONSTRAINT "site_settings_s3_check" CHECK (
    "target_kind" <> 's3' OR ("s3_endpoint" IS NOT NULL AND "s3_bucket" IS NOT NULL AND "s3_access_key_id" IS NOT NULL AND "s3_secret_sealed" IS NOT NULL)
);
ALTER TABLE "site_publications" ADD CONSTRAINT "site_publications_target_check" CHECK ("target" IN ('folder', 's3'));
