import type { OpenCreditsSaleRequest } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, orgOf } from '@ctk/shared';
import { MAX_PRICE_CENTS } from '../domain/create-item.js';
import { createOrder } from '../domain/create-order.js';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';

/**
 * Contracts sells a shop's credits (decision 0036): an order of one untaxed line, "<units> <symbol> credits"
 * at their face value, priced and paid as every order is. Paid, it tells credits.sold (a liability, 2350)
 * rather than payment.received; the merchant's wallet sends the units. Contracts checked the token and
 * computed the value; pos bounds it as it bounds any order.
 */
export async function openCreditsSale(context: OrderContext, request: OpenCreditsSaleRequest): Promise<OrderWithParts> {
  const org = orgOf(request.org);
  if (request.valueMinor <= 0n || request.valueMinor > MAX_PRICE_CENTS)
    throw new AppError(
      'validation_failed',
      `The credits come to ${request.valueMinor}; an order takes 1 to ${MAX_PRICE_CENTS} minor units`,
      {
        field: 'units',
      },
    );
  return createOrder(
    context,
    request.org ?? {},
    org,
    {
      lines: [
        { itemId: '', quantity: 1n, modifiers: [], name: `${request.units} ${request.symbol} credits`, unitPriceMinor: request.valueMinor },
      ],
      discountBasisPoints: 0,
      discountMinor: 0n,
      tipBasisPoints: 0,
      tipMinor: 0n,
      currency: request.currency,
      publicUrl: request.publicUrl,
      createdBy: request.createdBy,
      note: '',
      staff: true,
    },
    { creditsTokenId: request.tokenId },
  );
}
