import type { CursorPosition } from '@ctk/shared';
import type { GatePayment, Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = PrismaClient | Prisma.TransactionClient;

// Removed resources with a credential that could still be used, named once each (the database does the
// distinct, so a removed resource with a hundred thousand live credentials costs one row, not a hundred
// thousand, on an endpoint anyone may call). Every unexpired payment counts, revoked or not: one recorded
// while its resource was being removed was never marked revoked, and must not buy the path priced again.
const REMOVED_RESOURCES = `SELECT DISTINCT p.resource_id::text AS id FROM gate_payments p
  JOIN gate_resources r ON r.id = p.resource_id
  WHERE r.deleted_at IS NOT NULL AND p.expires_at > now()`;

// Single revoked credentials of live resources.
const REVOKED_CREDENTIALS = `SELECT p.id::text AS id FROM gate_payments p
  JOIN gate_resources r ON r.id = p.resource_id
  WHERE p.revoked_at IS NOT NULL AND r.deleted_at IS NULL AND p.expires_at > now()`;

/** Stores a payment with what it bought (its txid and nonce unique) and answers it as stored. */
export async function addGatePayment(db: Db, data: Prisma.GatePaymentUncheckedCreateInput): Promise<GatePayment> {
  return db.gatePayment.create({ data });
}

/** Whether a payment under this nonce (a request's, or a BRC-42 payment's name) is recorded. */
export async function isPaymentNonceUsed(db: Db, nonce: string): Promise<boolean> {
  return (await db.gatePayment.findUnique({ where: { nonce }, select: { id: true } })) !== null;
}

/** The payment recorded under this nonce (a request's, or a BRC-42 payment's name); null when there is none. */
export async function findGatePaymentByNonce(db: Db, nonce: string): Promise<GatePayment | null> {
  return db.gatePayment.findUnique({ where: { nonce } });
}

/**
 * A payment offered again, as one call of what it bought, unrevoked and unexpired at `now`: for calls, by one
 * conditional update that may take one call past those bought (the first answer counted the paid request as a
 * call, and when that answer was lost the call may never have been served), never more. The payment as it
 * stands after; null when nothing is left.
 */
export async function takeResendCall(db: Db, payment: Pick<GatePayment, 'id' | 'calls'>, now: Date): Promise<GatePayment | null> {
  if (payment.calls !== null) {
    const used = await db.gatePayment.updateMany({
      where: { id: payment.id, revokedAt: null, expiresAt: { gt: now }, callsUsed: { lte: payment.calls } },
      data: { callsUsed: { increment: 1 } },
    });
    if (used.count === 0) return null;
  }
  return findUsableCredential(db, payment.id, now);
}

/** Revokes, at `now`, every credential bought for the resource that is unrevoked and unexpired. */
export async function revokeResourceCredentials(db: Db, resourceId: string, now: Date): Promise<void> {
  await db.gatePayment.updateMany({
    where: { resourceId, revokedAt: null, expiresAt: { gt: now } },
    data: { revokedAt: now },
  });
}

/** Takes one call of a credential with calls left, unrevoked and unexpired at `now`, by one conditional update; false when none is left. */
export async function takeCredentialCall(db: Db, paymentId: string, calls: number, now: Date): Promise<boolean> {
  const used = await db.gatePayment.updateMany({
    where: { id: paymentId, revokedAt: null, expiresAt: { gt: now }, callsUsed: { lt: calls } },
    data: { callsUsed: { increment: 1 } },
  });
  return used.count > 0;
}

/** The payment behind a credential when it is unrevoked and unexpired at `now`; null otherwise. */
export async function findUsableCredential(db: Db, paymentId: string, now: Date): Promise<GatePayment | null> {
  return db.gatePayment.findFirst({ where: { id: paymentId, revokedAt: null, expiresAt: { gt: now } } });
}

/** Up to `take` of the account's payments, newest first, after `after` when given. */
export async function pageGatePayments(db: Db, accountId: string, take: number, after?: CursorPosition): Promise<GatePayment[]> {
  return db.gatePayment.findMany({
    where: {
      accountId,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

/** Removed resources with a credential still unexpired (all of their credentials are revoked), by id. */
export async function findRevokedResourceIds(db: Db): Promise<string[]> {
  return (await db.$queryRawUnsafe<Array<{ id: string }>>(REMOVED_RESOURCES)).map((row) => row.id);
}

/** Single revoked, unexpired credentials of live resources, by payment id. */
export async function findRevokedCredentialIds(db: Db): Promise<string[]> {
  return (await db.$queryRawUnsafe<Array<{ id: string }>>(REVOKED_CREDENTIALS)).map((row) => row.id);
}
