-- Records written before this migration may hold new keys in plain text (and the Idempotency-Keys that
-- now unseal them): they are dropped. They lived 24 hours, and a retry after this runs is a new request.
DELETE FROM "idempotency_records";

-- DropIndex
DROP INDEX "idempotency_records_scope_key_key";

-- AlterTable
ALTER TABLE "idempotency_records" DROP COLUMN "key",
ADD COLUMN     "key_hash" TEXT NOT NULL,
ADD COLUMN     "sealed_secrets" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_records_scope_key_hash_key" ON "idempotency_records"("scope", "key_hash");
