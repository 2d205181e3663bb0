-- The client address that opened a pay-link order (decision 0024): one address holds at most a few unpaid
-- orders of a limited link at once.
-- AlterTable
ALTER TABLE "orders" ADD COLUMN "client_address" TEXT;
