import type { OrderQuote } from '@ctk/proto/ctk/pos/v1/pos';
import type { Org } from '@ctk/shared';
import type { OrderContext } from '../orders/order-context.js';
import { priceNewOrder, type NewOrderInput } from './create-order.js';

/**
 * Prices an order request as createOrder would now (decision 0023), creating nothing: no number, no rate,
 * no receiving output, no stamp spent. The counter's cart shows it, so the total shown is the total
 * charged; a request createOrder would refuse is refused here the same way.
 */
export async function quoteOrder(context: OrderContext, org: Org, input: NewOrderInput): Promise<OrderQuote> {
  const { currency, priced, reward, standardRate, pricesIncludeTax } = await priceNewOrder(context, org, input);
  return {
    currency,
    lines: priced.lines.map((line) => ({
      itemId: line.itemId ?? '',
      name: line.name,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      modifiers: line.modifiers,
      discountMinor: line.discountMinor,
      taxTreatment: line.taxTreatment,
      taxRate: line.taxRate,
      taxMinor: line.taxMinor,
      totalMinor: line.totalMinor,
    })),
    subtotalMinor: priced.subtotalMinor,
    discountMinor: priced.discountMinor,
    taxMinor: priced.taxMinor,
    tipMinor: priced.tipMinor,
    totalMinor: priced.totalMinor,
    pricesIncludeTax,
    taxJurisdiction: standardRate.jurisdiction,
    rewardMinor: priced.rewardMinor,
    reward: reward?.reward ?? '',
  };
}
