import type { Org } from '@ctk/shared';
import type { OrderContext } from './order-context.js';

/**
 * How the organisation's orders are taxed now, as books keeps it (decision 0028): its jurisdiction (empty:
 * none, so untaxed), whether its prices include tax, and the jurisdiction's standard rate in force today.
 * One call per order, the call pos made for the rate before: settings and rate come together, so a
 * change of jurisdiction or of the table applies to the next order.
 */
export type OrderTax = { jurisdiction: string; pricesIncludeTax: boolean; standardRate: { code: string; rate: string } | null };

export async function orderTaxOf(context: Pick<OrderContext, 'books'>, org: Org): Promise<OrderTax> {
  const [settings] = (await context.books.getTaxSettings({ organizationIds: [org.id], at: '' })).settings;
  if (!settings) throw new Error(`books answered no tax settings for ${org.id}`);
  return {
    jurisdiction: settings.jurisdiction,
    pricesIncludeTax: settings.pricesIncludeTax,
    standardRate: settings.rate ? { code: settings.rate.code, rate: settings.rate.rate } : null,
  };
}
