import { decodeTransaction, hexToBytes, verifyTokenPayment } from '@ctk/chain';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, countPayment, validate } from '@ctk/shared';
import { z } from 'zod';
import type { StablecoinIntentRow } from '../data/stablecoin-repository.js';
import { findIntent } from './get-intent.js';
import { intentStatus } from './intent-message.js';
import type { StablecoinContext } from './stablecoin-context.js';
import { stablecoinPaidEvent } from './stablecoin-paid-event.js';

/** A transaction handed over whole: hex of at most 1 MB (a token transfer is a few hundred bytes). */
const MAX_TRANSACTION_HEX = 2_000_000;

const settleSchema = z
  .object({
    txid: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'txid must be 64 lower-case hex characters')
      .optional(),
    transaction: z
      .string()
      .max(MAX_TRANSACTION_HEX, `transaction must be at most ${MAX_TRANSACTION_HEX} hex characters`)
      .regex(/^([0-9a-fA-F]{2})+$/, 'transaction must be hex (raw, Extended Format or BEEF)')
      .optional(),
    publicUrl: z.string().default(''),
  })
  .refine((input) => (input.txid === undefined) !== (input.transaction === undefined), {
    message: 'give exactly one of txid and transaction',
    path: ['txid'],
  });

/** pos's refusals of marking the order paid: they will not change by asking again. */
const POS_REFUSALS = new Set(['failed_precondition', 'not_found', 'validation_failed']);

/**
 * Settles an intent with a token transfer (docs/decisions/0036-stablecoin-and-tokens.md): verified on the chain
 * (the stablecoin, through its cosigner, at least the amount, to the intent's address, valid by the token's
 * rules, broadcast if handed over), before the intent's expiry. pos then marks the order paid, under the lock
 * every payment of it takes; the transfer, the intent's success and its payment event are one transaction.
 * The same transfer again answers the intent as it is; a transfer arriving after another paid it, or once the
 * order can take no payment, is kept as refund_due and refused. Each is counted in ctk_payments_total (path
 * stablecoin, the one payment of a checkout or counter order that commerce itself verifies): accepted,
 * duplicate (the same transfer again), refused or error.
 */
export async function settleIntent(
  context: StablecoinContext,
  input: { paymentId: string; txid?: string; transaction?: string; publicUrl?: string },
): Promise<StablecoinIntentRow> {
  const settled = await countPayment(
    'stablecoin',
    () => settle(context, input),
    (answer) => answer.outcome,
  );
  return settled.intent;
}

async function settle(
  context: StablecoinContext,
  input: { paymentId: string; txid?: string; transaction?: string; publicUrl?: string },
): Promise<{ intent: StablecoinIntentRow; outcome: 'accepted' | 'duplicate' }> {
  const request = validate(settleSchema, { txid: input.txid, transaction: input.transaction, publicUrl: input.publicUrl });
  const txid = request.txid ?? txidOf(request.transaction!);
  return context.settles(`${input.paymentId} ${txid}`, () => settleTransfer(context, input.paymentId, request, txid));
}

async function settleTransfer(
  context: StablecoinContext,
  paymentId: string,
  request: z.infer<typeof settleSchema>,
  txid: string,
): Promise<{ intent: StablecoinIntentRow; outcome: 'accepted' | 'duplicate' }> {
  const intent = await findIntent(context, paymentId);
  if (intent.transfers.some((transfer) => transfer.txid === txid)) return { intent, outcome: 'duplicate' };
  const now = context.now();
  const status = intentStatus(intent, now);
  if (status === 'expired')
    throw new AppError('payment_expired', `Intent ${intent.id} expired at ${intent.expiresAt.toISOString()}: it takes no payment.`, {
      expires_at: intent.expiresAt.toISOString(),
    });
  if (status === 'canceled')
    throw new AppError('failed_precondition', `Intent ${intent.id} was canceled with its order: it takes no payment.`);
  const verified = await verifyTokenPayment({
    payment: request.txid ? { txid } : { transaction: request.transaction! },
    expected: { tokenId: intent.tokenId, address: intent.address, cosignerPublicKey: intent.cosignerKey, amount: intent.tokenAmount },
    chain: context.chain,
    isOutputUsed: async (usedTxid, vout) => {
      const recorded = await context.intents.transferOf(usedTxid, vout);
      return recorded !== null && recorded.intentId !== intent.id;
    },
  });
  const transfer = { txid, vout: verified.vout, tokenAmount: verified.amount };
  const order = await markOrderPaid(context, intent, transfer, request.publicUrl);
  const settled = await context.intents.settle(intent.id, transfer, (row) => stablecoinPaidEvent(row, order, txid, now), now);
  if (settled.outcome === 'accepted') context.eventsCommitted();
  if (settled.outcome === 'refund_due') throw refundDue(settled.intent, txid);
  return { intent: settled.intent, outcome: settled.outcome === 'accepted' ? 'accepted' : 'duplicate' };
}

function txidOf(hex: string): string {
  try {
    return decodeTransaction(hexToBytes(hex)).txid;
  } catch {
    throw new AppError('validation_failed', 'transaction is not a raw, Extended Format or BEEF transaction', { field: 'transaction' });
  }
}

/**
 * pos marks the order paid in the stablecoin (the same call again answers it as it is). A refusal (the order was
 * paid in bitcoin, cancelled, or expired meanwhile) keeps the transfer as refund_due; pos unreachable records
 * nothing, and the same settle may be sent again.
 */
async function markOrderPaid(
  context: StablecoinContext,
  intent: StablecoinIntentRow,
  transfer: { txid: string; vout: number; tokenAmount: bigint },
  publicUrl: string,
): Promise<Order> {
  try {
    // Settles of the intent in other processes wait in turn on the order's row in pos: longer than a read's deadline.
    const { order } = await context.pos.markOrderPaidElsewhere(
      {
        org: { id: intent.organizationId, handle: intent.orgHandle },
        orderNumber: intent.orderNumber,
        provider: 'stablecoin',
        paymentRef: transfer.txid,
        publicUrl,
      },
      { timeoutMs: 20_000 },
    );
    if (!order) throw new AppError('internal', 'pos answered without the order');
    return order;
  } catch (error) {
    if (!AppError.is(error) || !POS_REFUSALS.has(error.code)) {
      context.logger.warn({ err: error, intent: intent.id }, 'pos could not be asked to mark the order paid in the stablecoin');
      throw new AppError(
        'unavailable',
        `pos could not be asked to mark order ${intent.orderNumber} paid; nothing was recorded: settle again.`,
      );
    }
    const kept = await context.intents.refundDue(intent.id, transfer, `pos refused: ${error.message}`, context.now());
    throw refundDue(kept, transfer.txid);
  }
}

function refundDue(intent: StablecoinIntentRow, txid: string): AppError {
  const reason = intent.transfers.find((transfer) => transfer.txid === txid)?.reason ?? 'the intent takes no more payment';
  return new AppError('failed_precondition', `Transfer ${txid} cannot pay intent ${intent.id}: ${reason}. It is kept as refund_due.`, {
    reason: 'refund_due',
    txid,
  });
}
