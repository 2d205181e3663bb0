-- Decision 0036: a credits token's face value, fixed at mint. Made with ctk-prisma-migration.
-- AlterTable
ALTER TABLE "tokens" ADD COLUMN     "currency" TEXT,
ADD COLUMN     "unit_value_minor" BIGINT;
