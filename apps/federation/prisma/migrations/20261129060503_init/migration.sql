-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "federation_keys" (
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "federation_keys_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "shop_hours" (
    "organization_id" UUID NOT NULL,
    "hours" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shop_hours_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "feeds" (
    "id" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "organization_id" UUID,
    "origin_url" TEXT NOT NULL,
    "origin_public_key" TEXT NOT NULL,
    "local" BOOLEAN NOT NULL,
    "sequence" BIGINT NOT NULL,
    "digest" TEXT NOT NULL,
    "merchant_signed" BOOLEAN NOT NULL,
    "name" TEXT NOT NULL,
    "category" TEXT,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "geohash" TEXT COLLATE "C",
    "paymail" TEXT,
    "time_zone" TEXT NOT NULL,
    "hours" JSONB NOT NULL,
    "document" JSONB NOT NULL,
    "item_count" INTEGER NOT NULL,
    "published_at" TIMESTAMP(3) NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feeds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feed_items" (
    "feed_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT,
    "price_minor" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "satoshis" BIGINT,
    "available" BOOLEAN NOT NULL,
    "images" TEXT[],

    CONSTRAINT "feed_items_pkey" PRIMARY KEY ("feed_id","product_id")
);

-- CreateTable
CREATE TABLE "peers" (
    "url" TEXT NOT NULL,
    "public_key" TEXT,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "source" TEXT NOT NULL,
    "last_seen_at" TIMESTAMP(3),
    "next_pull_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "peers_pkey" PRIMARY KEY ("url")
);

-- CreateTable
CREATE TABLE "pins" (
    "id" UUID NOT NULL,
    "latitude" DOUBLE PRECISION NOT NULL,
    "longitude" DOUBLE PRECISION NOT NULL,
    "geohash" TEXT COLLATE "C" NOT NULL,
    "label" TEXT NOT NULL,
    "note" TEXT,
    "category" TEXT,
    "created_by" TEXT,
    "client_address" TEXT,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pins_pkey" PRIMARY KEY ("id")
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
CREATE UNIQUE INDEX "feeds_organization_id_key" ON "feeds"("organization_id");

-- CreateIndex
CREATE INDEX "feeds_geohash_idx" ON "feeds"("geohash");

-- CreateIndex
CREATE INDEX "feeds_category_idx" ON "feeds"("category");

-- CreateIndex
CREATE INDEX "feeds_published_at_idx" ON "feeds"("published_at");

-- CreateIndex
CREATE INDEX "peers_next_pull_at_idx" ON "peers"("next_pull_at");

-- CreateIndex
CREATE INDEX "pins_geohash_idx" ON "pins"("geohash");

-- CreateIndex
CREATE INDEX "pins_client_address_created_at_idx" ON "pins"("client_address", "created_at");

-- CreateIndex
CREATE INDEX "pins_created_by_idx" ON "pins"("created_by");

-- CreateIndex
CREATE INDEX "outbox_events_sent_at_created_at_idx" ON "outbox_events"("sent_at", "created_at");

-- AddForeignKey
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "feeds"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Search over feed items: a generated tsvector (the simple configuration: names in any language, no stemming) and its GIN index
ALTER TABLE "feed_items" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple', "name" || ' ' || "description" || ' ' || coalesce("category", ''))) STORED;
CREATE INDEX "feed_items_search_idx" ON "feed_items" USING GIN ("search");

-- Search over merchants by name and category, the same way
ALTER TABLE "feeds" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple', "name" || ' ' || coalesce("category", ''))) STORED;
CREATE INDEX "feeds_search_idx" ON "feeds" USING GIN ("search");
