-- AlterTable
ALTER TABLE "organizations" DROP COLUMN "jurisdiction_prices_include_tax";
