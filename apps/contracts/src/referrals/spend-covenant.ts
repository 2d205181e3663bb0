import { Transaction } from '@bsv/sdk';
import { outputCovenantUnlock } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import type { ReferralCheckout } from '../data/referral-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { covenantOutputsOf, storedOutputsOf } from './covenant-outputs.js';

/**
 * The covenant's spend (decision 0040): its one input the funding's covenant output, its outputs exactly those
 * the covenant fixes, the rest the fee. No key signs it: its unlocking script is its own BIP 143 preimage, which
 * the covenant checks. Built the same from the same funding, so each try is the same transaction.
 */
export async function covenantSpend(checkout: ReferralCheckout): Promise<Transaction> {
  if (!checkout.fundingTransaction) throw new AppError('internal', `Checkout ${checkout.id} has no funding to spend`);
  const funding = Transaction.fromHex(checkout.fundingTransaction);
  const vout = funding.outputs.findIndex((output) => output.lockingScript.toHex() === checkout.covenantScript);
  const spend = new Transaction();
  spend.addInput({
    sourceTransaction: funding,
    sourceOutputIndex: vout,
    sequence: 0xffffffff,
    unlockingScriptTemplate: outputCovenantUnlock(),
  });
  for (const output of covenantOutputsOf(storedOutputsOf(checkout.outputs))) spend.addOutput(output);
  await spend.sign();
  return spend;
}

/** pos refusing the order any payment: it expired, or staff cancelled it, while the buyer paid the covenant. */
const ORDER_CLOSED = new Set(['payment_expired', 'failed_precondition']);

/**
 * Pays the checkout's order with the covenant's spend: pos has p2p check that it pays the shop's output and the
 * referrer's and broadcast it, and records the order paid (its payment.received carries the commission). pos
 * answering the same transaction again is a retry it acknowledges. If pos takes no payment for the order any
 * more (it expired or was cancelled while the buyer paid), the spend is broadcast all the same: the money was
 * the buyer's to the shop and the referrer, and pos keeps what reaches the order's address for a refund.
 * Recorded, the checkout is paid.
 */
export async function spendCovenant(context: ContractsContext, checkout: ReferralCheckout): Promise<ReferralCheckout> {
  if (checkout.spendTxid) return checkout;
  const spend = await covenantSpend(checkout);
  try {
    await context.pos.payOrder(
      { orderNumber: checkout.orderNumber, transaction: spend.toHex(), memo: '', merchantData: '', refundTo: '' },
      { timeoutMs: 30_000 },
    );
  } catch (error) {
    if (!(error instanceof AppError && ORDER_CLOSED.has(error.code))) throw error;
    context.logger.warn(
      { err: error, checkout: checkout.id },
      'pos took no payment for a funded referral checkout: its spend is broadcast',
    );
    await context.chain.broadcast(spend);
  }
  return context.referrals.recordSpend(checkout.id, spend.id('hex'), context.now());
}
