-- Whether shelf prices include tax in the organisation's jurisdiction, as books answers it when the
-- jurisdiction is chosen (decision 0004): the default of prices_include_tax, no longer derived from the code.
ALTER TABLE "organizations" ADD COLUMN "jurisdiction_prices_include_tax" BOOLEAN NOT NULL DEFAULT false;

-- Organisations that chose a jurisdiction before books answered this: books' table says the same as the
-- rule the gateway used until now (exclusive in the US and Canada, inclusive everywhere else it covers).
UPDATE "organizations" SET "jurisdiction_prices_include_tax" = true
WHERE "jurisdiction" IS NOT NULL AND "jurisdiction" !~ '^(US|CA)(-|$)';
