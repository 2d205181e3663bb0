import type { GatePaymentRequest, Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** What a request offered again answers: its nonce, the script it pays, its child of the xpub and its expiry. */
export type OfferedRequest = { nonce: string; script: string; derivationIndex: number | null; expiresAt: Date };

/** Stores a new payment request. */
export async function addPaymentRequest(db: Db, data: Prisma.GatePaymentRequestUncheckedCreateInput): Promise<void> {
  await db.gatePaymentRequest.create({ data });
}

/** Deletes the account's unpaid requests that expired before `before`. */
export async function deleteExpiredRequests(db: Db, accountId: string, before: Date): Promise<void> {
  await db.gatePaymentRequest.deleteMany({
    where: { accountId, paidTxid: null, expiresAt: { lt: before } },
  });
}

/** The payment request with this nonce, whatever its state; null when there is none. */
export async function findPaymentRequestByNonce(db: Db, nonce: string): Promise<GatePaymentRequest | null> {
  return db.gatePaymentRequest.findUnique({ where: { nonce } });
}

/** The account's newest request on this script (of this resource when given), unpaid or paid by `txid`. */
export async function findRequestForScript(
  db: Db,
  key: { accountId: string; script: string; resourceId?: string },
  txid: string,
): Promise<GatePaymentRequest | null> {
  return db.gatePaymentRequest.findFirst({
    where: {
      accountId: key.accountId,
      script: key.script,
      ...(key.resourceId ? { resourceId: key.resourceId } : {}),
      OR: [{ paidTxid: null }, { paidTxid: txid }],
    },
    orderBy: { createdAt: 'desc' },
  });
}

/** The resource's unpaid, unclaimed request at this price on the xpub expiring latest, if after `expiresAfter`. */
export async function findSharedOpenRequest(
  db: Db,
  offer: { accountId: string; resourceId: string; xpub: string; satoshis: bigint },
  expiresAfter: Date,
): Promise<OfferedRequest | null> {
  return db.gatePaymentRequest.findFirst({
    where: {
      accountId: offer.accountId,
      resourceId: offer.resourceId,
      xpub: offer.xpub,
      satoshis: offer.satoshis,
      paidTxid: null,
      claimedTxid: null,
      derivationIndex: { not: null },
      expiresAt: { gt: expiresAfter },
    },
    orderBy: { expiresAt: 'desc' },
    select: { nonce: true, script: true, derivationIndex: true, expiresAt: true },
  });
}

/**
 * Claims the unpaid request for `txid` by one conditional update: when unclaimed, already claimed by
 * `txid`, or claimed before `staleBefore`. False when it was not claimed.
 */
export async function claimPaymentRequest(db: Db, nonce: string, txid: string, staleBefore: Date): Promise<boolean> {
  const claimed = await db.gatePaymentRequest.updateMany({
    where: {
      nonce,
      paidTxid: null,
      OR: [{ claimedTxid: null }, { claimedTxid: txid }, { claimedAt: { lt: staleBefore } }],
    },
    data: { claimedTxid: txid, claimedAt: new Date() },
  });
  return claimed.count > 0;
}

/** Frees the request's claim by `txid` while it is unpaid. */
export async function releasePaymentRequestClaim(db: Db, nonce: string, txid: string): Promise<void> {
  await db.gatePaymentRequest.updateMany({ where: { nonce, claimedTxid: txid, paidTxid: null }, data: { claimedTxid: null } });
}

/** Marks the unpaid request paid by `txid` by one conditional update; false when it was paid already. */
export async function markPaymentRequestPaid(db: Db, nonce: string, txid: string): Promise<boolean> {
  const paid = await db.gatePaymentRequest.updateMany({
    where: { nonce, paidTxid: null },
    data: { paidTxid: txid },
  });
  return paid.count > 0;
}

/** The txid that paid the request (null: unpaid); null when there is no such request. */
export async function findRequestPayment(db: Db, nonce: string): Promise<{ paidTxid: string | null } | null> {
  return db.gatePaymentRequest.findUnique({ where: { nonce }, select: { paidTxid: true } });
}
