-- Decision 0021: a payment request's nonce handed to more than one payer is marked, and its payment offered again gets no credential.
-- AlterTable
ALTER TABLE "gate_payment_requests" ADD COLUMN     "offered_again_at" TIMESTAMP(3);
