import { verifyTokenPayment } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import type { TokenRedemption } from '../data/redemption-repository.js';
import { newRecordId } from '../domain/record-id.js';
import { orderNumberSchema } from './order-number.js';
import { creditsValue, shopCredits } from './shop-credits.js';
import type { ContractsContext } from '../domain/contracts-context.js';

const redeemSchema = z.object({
  tokenId: z.string(),
  orderNumber: orderNumberSchema,
  txid: z.string().regex(/^[0-9a-f]{64}$/, 'txid must be 64 lower-case hex characters'),
  amount: z.bigint().min(1n, 'amount must be at least 1 unit').optional(),
  createdBy: z.string().max(100).default(''),
  publicUrl: z.string().default(''),
});

/** A redemption recorded, what it paid on the order, and the order as pos has it now. */
export type AppliedRedemption = { redemption: TokenRedemption; valueMinor: bigint; currency: string; order: Order | undefined };

/**
 * Redeems credits a customer transferred against an order (docs/decisions/0036-stablecoin-and-tokens.md): the
 * transaction on the chain pays the shop's credits token, at least `amount` units when given, to the address
 * held for this order's redemption, and the token indexer holds the transfer valid (it moves no more than its
 * inputs hold). Each output redeems once: the same txid for the same order answers the redemption recorded;
 * for another order it is txid_already_used. Recorded, its face value pays the pos order (applyOrderCredits,
 * once per redemption): credits.redeemed turns the liability into revenue and tax. A redemption recorded whose
 * application failed (pos unreachable) is applied when it is redeemed again; one pos refuses (the order is no
 * longer open, or needs less than the credits are worth) stays recorded, its units at the shop's address.
 */
export async function redeemTokens(context: ContractsContext, orgRef: OrgRef | undefined, input: unknown): Promise<AppliedRedemption> {
  const org = orgOf(orgRef);
  const request = validate(redeemSchema, input);
  const token = await shopCredits(context, org, request.tokenId);
  const tokenId = token.tokenId;
  const held = await context.redemptions.addressOf(tokenId, request.orderNumber);
  if (!held)
    throw new AppError(
      'failed_precondition',
      `No redemption address was opened for order ${request.orderNumber}: open one (POST /api/v1/orgs/${org.handle}/tokens/${tokenId}/redemption-addresses), have the customer transfer the credits to it, then redeem.`,
      { field: 'order_number' },
    );
  const sameOrder = (row: TokenRedemption) => row.tokenId === tokenId && row.orderNumber === request.orderNumber;
  const verified = await verifyTokenPayment({
    payment: { txid: request.txid },
    expected: { tokenId, address: held.address, amount: request.amount ?? 1n },
    chain: context.chain,
    isOutputUsed: async (txid, vout) => {
      const recorded = await context.redemptions.byOutput(txid, vout);
      return recorded !== null && !sameOrder(recorded);
    },
  });
  const recorded = await context.redemptions.insertRedemption({
    id: newRecordId('tkr'),
    organizationId: org.id,
    tokenId,
    orderNumber: request.orderNumber,
    address: held.address,
    txid: verified.txid,
    vout: verified.vout,
    amount: verified.amount,
    createdBy: request.createdBy,
    createdAt: context.now(),
  });
  if (!sameOrder(recorded))
    throw new AppError('txid_already_used', `Output ${recorded.vout} of ${recorded.txid} was redeemed against another order already.`, {
      txid: recorded.txid,
      vout: recorded.vout,
    });
  const valueMinor = creditsValue(token, recorded.amount, 'amount');
  const { order } = await context.pos.applyOrderCredits(
    {
      org: orgRef,
      orderNumber: recorded.orderNumber,
      redemptionId: recorded.id,
      tokenId,
      symbol: token.symbol,
      units: recorded.amount,
      valueMinor,
      currency: token.currency,
      publicUrl: request.publicUrl,
    },
    { timeoutMs: 20_000 },
  );
  return { redemption: recorded, valueMinor, currency: token.currency, order };
}
