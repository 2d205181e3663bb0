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

/**
 * The account's newest request on this script (of this resource when given), unpaid or paid by `txid`. Newest
 * by expiry: a child is handed out again only once the hold of the request before ended.
 */
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
    orderBy: { expiresAt: 'desc' },
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
 * Marks the open request as offered again (its nonce handed to another payer than the one it was made for),
 * by one conditional update while it is unclaimed and unpaid; false when a transaction claimed it meanwhile
 * (then it is not offered). A request already marked keeps its first mark.
 */
export async function markOfferedAgain(db: Db, nonce: string): Promise<boolean> {
  const marked = await db.gatePaymentRequest.updateMany({
    where: { nonce, claimedTxid: null, paidTxid: null },
    data: { offeredAgainAt: new Date() },
  });
  return marked.count > 0;
}

/** Whether the request's nonce went to more than one payer (markOfferedAgain). */
export function isOfferedAgain(request: Pick<GatePaymentRequest, 'offeredAgainAt'>): boolean {
  return request.offeredAgainAt !== null;
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
