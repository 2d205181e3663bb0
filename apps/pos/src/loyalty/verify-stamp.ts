import type { VerifyReceiptResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { stampOfReceipt, type LoyaltyActivity, type LoyaltyCard } from '../data/loyalty-card-repository.js';

const TXID = /^[0-9a-f]{64}$/;

export type StampVerification = {
  card: LoyaltyCard;
  stamp: LoyaltyActivity & { order: { orderNumber: string } };
  /** p2p's reading of the receipt; absent when the chain does not have the transaction. */
  receipt: VerifyReceiptResponse | undefined;
  verified: boolean;
  problem: string;
};

/**
 * The stamp a transaction backs (public), checked against the chain by p2p's VerifyReceipt: verified only
 * when the transaction is mined with a valid merkle path and its receipt output (the one the stamp
 * records) names this order's merchant and number. No extra transaction and no key: the receipt the
 * customer's payment carried is the proof.
 */
export async function verifyStamp(cards: CardContext, txidText: string): Promise<StampVerification> {
  const txid = txidText.trim().toLowerCase();
  if (!TXID.test(txid)) throw new AppError('validation_failed', 'txid must be 64 hexadecimal characters', { field: 'txid' });
  const found = await stampOfReceipt(cards.orders.prisma, txid);
  if (!found?.order) throw new AppError('not_found', `No loyalty stamp is bound to transaction ${txid}`);
  const { card, order, ...activity } = found;
  const stamp = { ...activity, order: { orderNumber: order.orderNumber } };
  let receipt: VerifyReceiptResponse | undefined;
  try {
    receipt = await cards.orders.p2p.verifyReceipt({ txid, checkLines: false, lines: [] });
  } catch (error) {
    if (!(AppError.is(error) && error.code === 'not_found')) throw error;
    return { card, stamp, receipt: undefined, verified: false, problem: `The chain has no transaction ${txid}, or it carries no receipt.` };
  }
  const problems = [
    ...(receipt.merchant !== order.receiptMerchant
      ? [`its receipt names the merchant ${receipt.merchant}, not ${order.receiptMerchant}`]
      : []),
    ...(receipt.reference !== order.orderNumber ? [`its receipt names the order ${receipt.reference}, not ${order.orderNumber}`] : []),
    ...(receipt.receiptVout !== activity.receiptVout ? [`its receipt is output ${receipt.receiptVout}, not ${activity.receiptVout}`] : []),
    ...(receipt.verified ? [] : [receipt.why]),
  ];
  return { card, stamp, receipt, verified: problems.length === 0, problem: problems.join('; ') };
}
