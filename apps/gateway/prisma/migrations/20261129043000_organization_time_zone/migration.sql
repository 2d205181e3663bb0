-- The IANA time zone an organisation's books and pages show days and hours in (null: UTC)
ALTER TABLE "organizations" ADD COLUMN "time_zone" TEXT;
