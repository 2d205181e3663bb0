import { Transaction } from '@bsv/sdk';
import { decodeTransaction, hexToBytes } from '@ctk/chain';
import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ContractsContext } from '../domain/contracts-context.js';
import { foundCheckout, notSpentYet } from './referral-checkout-state.js';
import { spendCovenant } from './spend-covenant.js';

/** A transaction as hex: 10 MB of bytes at most. */
const MAX_TRANSACTION_HEX = 20_000_000;

const paymentSchema = z.object({
  id: z.string(),
  transaction: z
    .string()
    .min(1, 'transaction is required: the payment transaction in hex')
    .max(MAX_TRANSACTION_HEX, 'transaction is too large'),
  memo: z.string().max(1000),
  merchantData: z.string().max(10_000),
  refundTo: z.string().max(1000),
});

export type PaymentAck = { transaction: string; memo: string; error: number };

/**
 * BIP270: the buyer's wallet pays the checkout's covenant (decision 0040). The transaction must have one output
 * to the covenant holding at least what it asks; the checkout is claimed for it before it is broadcast, so one
 * covenant is funded once (another transaction is refused, the same one again is acknowledged). Once the chain
 * has it, the covenant's spend pays the order; if that fails, the money waits in the covenant, which nobody can
 * send elsewhere, and reading the checkout tries again.
 */
export async function payReferralCheckout(context: ContractsContext, input: z.input<typeof paymentSchema>): Promise<PaymentAck> {
  const payment = validate(paymentSchema, input);
  const checkout = await foundCheckout(context, payment.id);
  const tx = fundingOf(payment.transaction);
  const txid = tx.id('hex');
  const ack = {
    transaction: payment.transaction,
    memo: `Order ${checkout.orderNumber} at ${checkout.orgHandle} is paid. Thank you.`,
    error: 0,
  };
  if (checkout.fundingTxid === txid && checkout.fundingTransaction) {
    await spendCovenant(context, checkout).catch((error: unknown) => notSpentYet(context, checkout.id, error));
    return ack;
  }
  if (checkout.fundingTxid && checkout.fundingTxid !== txid)
    throw new AppError('failed_precondition', `Checkout ${checkout.id} is paid by another transaction: it takes no other payment`, {
      reason: 'paid',
    });
  if (context.now() > checkout.expiresAt)
    throw new AppError('payment_expired', `Checkout ${checkout.id} expired at ${checkout.expiresAt.toISOString()}`);
  const funding = checkout.satoshis + checkout.feeSatoshis;
  const toCovenant = tx.outputs.filter((output) => output.lockingScript.toHex() === checkout.covenantScript);
  if (toCovenant.length === 0)
    throw new AppError('payment_wrong_output', 'The transaction pays nothing to the checkout’s covenant (its payment request’s output)', {
      expected_output: 0,
      script: checkout.covenantScript,
    });
  if (toCovenant.length > 1)
    throw new AppError('validation_failed', 'The transaction pays the covenant twice: pay it in one output', { field: 'transaction' });
  const paid = BigInt(toCovenant[0]!.satoshis ?? 0);
  if (paid < funding)
    throw new AppError('payment_underpaid', `The covenant needs at least ${funding} satoshis; the transaction pays ${paid}`, {
      expected_output: 0,
      required_satoshis: Number(funding),
      paid_satoshis: Number(paid),
    });
  if (!(await context.referrals.claimFunding(checkout.id, txid)))
    throw new AppError('failed_precondition', `Checkout ${checkout.id} is being paid by another transaction`, { reason: 'being_paid' });
  try {
    await context.chain.broadcast(payment.transaction);
  } catch (error) {
    await context.referrals.releaseFunding(checkout.id, txid);
    throw error;
  }
  const funded = await context.referrals.recordFunding(checkout.id, txid, tx.toHex());
  await spendCovenant(context, funded).catch((error: unknown) => notSpentYet(context, checkout.id, error));
  return ack;
}

/** The Payment's transaction (raw, EF or BEEF hex); a 422 naming `transaction` when it is none. */
function fundingOf(hex: string): Transaction {
  try {
    return decodeTransaction(hexToBytes(hex)).tx;
  } catch (error) {
    throw new AppError(
      'validation_failed',
      `transaction is not a transaction in hex (raw, EF or BEEF): ${error instanceof Error ? error.message : 'unreadable'}`,
      { field: 'transaction' },
    );
  }
}
