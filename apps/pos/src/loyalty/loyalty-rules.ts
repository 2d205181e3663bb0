import type { LoyaltyProgram } from '../data/loyalty-program-repository.js';

/** What one order may earn, and what a card may hold: a program whose orders pass these is set up wrong (a stamp per cent). */
export const MAX_STAMPS_PER_ORDER = 10_000;
export const MAX_CARD_STAMPS = 1_000_000;

type PricedOrder = { subtotalMinor: bigint; discountMinor: bigint; rewardMinor?: bigint };
type Payment = { txid: string; receiptVout: number | null; receivedAt: Date };

/**
 * The stamps an order earns (decision 0017): one per paid order for `visit`; for `amount`, one per
 * `amountPerStampMinor` of the order's subtotal after discount and any loyalty reward (as the organisation
 * states its prices; tax it adds and the tip do not count), rounded down, at most MAX_STAMPS_PER_ORDER.
 * 0 when it earns none.
 */
export function stampsEarned(program: Pick<LoyaltyProgram, 'stampRule' | 'amountPerStampMinor'>, order: PricedOrder): number {
  if (program.stampRule === 'visit') return 1;
  const spent = order.subtotalMinor - order.discountMinor - (order.rewardMinor ?? 0n);
  if (spent <= 0n || program.amountPerStampMinor <= 0n) return 0;
  const stamps = spent / program.amountPerStampMinor;
  return stamps > BigInt(MAX_STAMPS_PER_ORDER) ? MAX_STAMPS_PER_ORDER : Number(stamps);
}

/** How many rewards the stamps pay for now. */
export function rewardsAvailable(stamps: number, program: Pick<LoyaltyProgram, 'stampsForReward'>): number {
  return Math.floor(stamps / program.stampsForReward);
}

/**
 * The receipt output a stamp is bound to (decision 0017, "On-chain stamps"): the first payment of the
 * order whose transaction carried the order's receipt output, else none.
 */
export function stampReceipt(payments: readonly Payment[]): { txid: string; vout: number } | null {
  const carrying = [...payments]
    .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
    .find((payment) => payment.receiptVout !== null);
  return carrying ? { txid: carrying.txid, vout: carrying.receiptVout! } : null;
}
