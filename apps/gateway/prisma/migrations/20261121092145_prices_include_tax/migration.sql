-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "prices_include_tax" BOOLEAN;
