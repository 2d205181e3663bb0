import { networkAddress, scriptOfAddress } from '@ctk/chain';
import type { OpenReferralOrderRequest } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, orgOf } from '@ctk/shared';
import { createOrder } from '../domain/create-order.js';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';

/** The most a referrer may be given of a sale: half of it. */
export const MAX_COMMISSION_BASIS_POINTS = 5_000;

/**
 * Contracts sells an item through a referral link (decision 0040): an order of one of the item at its price,
 * taxed as any sale, whose payment pays the referrer's commission to the referrer's address beside the shop's
 * own output. Contracts checked the link; pos prices the order and fixes the commission in it.
 */
export async function openReferralOrder(context: OrderContext, request: OpenReferralOrderRequest): Promise<OrderWithParts> {
  const org = orgOf(request.org);
  const basisPoints = request.commissionBasisPoints;
  if (!Number.isInteger(basisPoints) || basisPoints < 1 || basisPoints > MAX_COMMISSION_BASIS_POINTS)
    throw new AppError('validation_failed', `commission_basis_points must be 1 to ${MAX_COMMISSION_BASIS_POINTS} (50%)`, {
      field: 'commission_basis_points',
    });
  const address = networkAddress(request.commissionAddress, context.network, 'referrer_address');
  return createOrder(
    context,
    request.org ?? {},
    org,
    {
      lines: [{ itemId: request.itemId, quantity: 1n, modifiers: [], name: '', unitPriceMinor: 0n }],
      discountBasisPoints: 0,
      discountMinor: 0n,
      tipBasisPoints: 0,
      tipMinor: 0n,
      currency: '',
      publicUrl: request.publicUrl,
      createdBy: '',
      note: '',
      clientAddress: request.clientAddress,
    },
    {
      commission: {
        basisPoints,
        address,
        script: scriptOfAddress(address, context.network, 'referrer_address'),
        referralLinkId: request.referralLinkId,
      },
    },
  );
}
