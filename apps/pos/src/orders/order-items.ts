import type { SqlQueries } from '@ctk/shared';
import { itemsForOrder } from '../data/item-repository.js';
import type { TaxTreatment } from './price-order.js';

export type OrderItemModifier = { id: string; name: string; priceCents: bigint; group: string };

/** What an order needs of an item, whatever the item model holds. */
export type OrderItem = {
  id: string;
  name: string;
  priceCents: bigint;
  currency: string;
  available: boolean;
  taxTreatment: TaxTreatment;
  /** For "reduced": a decimal string. */
  taxRate: string;
  priceType: 'fixed' | 'minimum' | 'top_up';
  /** Units in stock; null when not tracked. */
  inventory: bigint | null;
  modifiers: OrderItemModifier[];
};

/**
 * The organisation's items of these ids, as orders read them: the one place order code touches the
 * item model. Another organisation's id is simply not found.
 */
export async function readOrderItems(sql: SqlQueries, organizationId: string, ids: readonly string[]): Promise<Map<string, OrderItem>> {
  if (ids.length === 0) return new Map();
  const rows = await itemsForOrder(sql, organizationId, ids);
  return new Map(
    rows.map((row): [string, OrderItem] => [
      row.id,
      {
        id: row.id,
        name: row.name,
        priceCents: row.priceCents,
        currency: row.currency,
        available: row.available,
        taxTreatment: row.taxTreatment as TaxTreatment,
        taxRate: row.taxRate ?? '',
        priceType: row.priceType as OrderItem['priceType'],
        inventory: row.inventory,
        modifiers: row.modifiers.map((modifier) => ({
          id: modifier.id,
          name: modifier.name,
          priceCents: BigInt(modifier.priceCents),
          group: modifier.group ?? '',
        })),
      },
    ]),
  );
}
