-- AlterTable
ALTER TABLE "ticket_holds" ADD COLUMN     "client_address" TEXT;

-- CreateIndex
CREATE INDEX "ticket_holds_client_address_state_idx" ON "ticket_holds"("client_address", "state");
