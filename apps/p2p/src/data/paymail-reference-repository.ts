import type { PaymailReference, Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** What the payment adds to its reference when recorded. */
export type ReferencePayment = {
  paidTxid: string;
  paidAt: Date;
  senderHandle: string | null;
  senderPubkey: string | null;
  note: string | null;
};

/** Stores a reference issued with a P2P payment destination. */
export async function addPaymailReference(db: Db, data: Prisma.PaymailReferenceUncheckedCreateInput): Promise<void> {
  await db.paymailReference.create({ data });
}

/** In the caller's transaction: locks the reference's row (SELECT ... FOR UPDATE) and answers it; null when there is none. */
export async function lockPaymailReference(tx: Prisma.TransactionClient, reference: string): Promise<PaymailReference | null> {
  await tx.$queryRawUnsafe('SELECT reference FROM paymail_references WHERE reference = $1 FOR UPDATE', reference);
  return tx.paymailReference.findUnique({ where: { reference } });
}

/** Marks the reference claimed by `txid` from now, and answers it as it then is. */
export async function claimPaymailReference(db: Db, reference: string, txid: string): Promise<PaymailReference> {
  return db.paymailReference.update({
    where: { reference },
    data: { claimedTxid: txid, claimedAt: new Date() },
  });
}

/** Frees the reference's claim by `txid` while it is unpaid. */
export async function releasePaymailReferenceClaim(db: Db, reference: string, txid: string): Promise<void> {
  await db.paymailReference.updateMany({
    where: { reference, claimedTxid: txid, paidTxid: null },
    data: { claimedTxid: null, claimedAt: null },
  });
}

/** Marks the reference paid, with who paid and their note. */
export async function markPaymailReferencePaid(db: Db, reference: string, payment: ReferencePayment): Promise<void> {
  await db.paymailReference.update({ where: { reference }, data: payment });
}
