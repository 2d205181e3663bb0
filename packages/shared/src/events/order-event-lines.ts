import type { LineItem } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';

/**
 * A pos order's lines as a payment event carries them, when they add up to what the event says was paid
 * (`totalMinor` less the order's tip, and `taxMinor`); none otherwise, so that reports never count items of
 * another sum. Paid elsewhere (a provider, the stablecoin, an escrow), the service that took the payment posts
 * the order's lines as pos priced them.
 */
export function orderEventLines(order: Order | undefined, paid: { totalMinor: bigint; taxMinor: bigint }): LineItem[] {
  if (!order) return [];
  const lines = order.lines.map((line) => ({
    itemId: line.itemId,
    name: line.name,
    quantity: line.quantity,
    unitPriceMinor: line.unitPriceMinor,
    taxMinor: line.taxMinor,
    totalMinor: line.totalMinor,
  }));
  const total = lines.reduce((sum, line) => sum + line.totalMinor, 0n) + order.tipMinor;
  const tax = lines.reduce((sum, line) => sum + line.taxMinor, 0n);
  return total === paid.totalMinor && tax === paid.taxMinor ? lines : [];
}

/** The order's one tax rate, when all its lines share it (a decimal string); else empty. */
export function orderTaxRate(order: Order | undefined): string {
  const rates = new Set(order?.lines.map((line) => line.taxRate));
  return rates.size === 1 ? [...rates][0]! : '';
}
