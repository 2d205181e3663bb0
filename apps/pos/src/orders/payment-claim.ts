import { AppError } from '@ctk/shared';
import type { OrderWithParts } from '../data/order-repository.js';

/**
 * A BIP270 payment claims its order while p2p verifies and broadcasts it (decision 0015); a claim older than
 * this holds nothing (its process died between the claim and the record, or the chain never answered).
 */
export const CLAIM_STALE_MS = 2 * 60_000;

/** Whether a BIP270 payment other than `txid` (any, without one) holds the order at `now`. */
export function isClaimedByAnother(order: Pick<OrderWithParts, 'claimedTxid' | 'claimedAt'>, now: Date, txid?: string): boolean {
  if (!order.claimedTxid || order.claimedTxid === txid || !order.claimedAt) return false;
  return now.getTime() - order.claimedAt.getTime() < CLAIM_STALE_MS;
}

/** The 409 of a change refused while a BIP270 payment of the order is being broadcast. */
export function beingPaid(order: Pick<OrderWithParts, 'orderNumber' | 'claimedTxid'>, what: string): AppError {
  return new AppError(
    'failed_precondition',
    `Order ${order.orderNumber} is being paid by transaction ${order.claimedTxid}: ${what}; try again in a moment`,
    { claimed_txid: order.claimedTxid },
  );
}
