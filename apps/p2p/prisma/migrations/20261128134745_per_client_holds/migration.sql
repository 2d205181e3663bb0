-- AlterTable
ALTER TABLE "derived_addresses" ADD COLUMN     "client" TEXT NOT NULL DEFAULT '';
