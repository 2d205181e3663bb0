import { WITH_MODIFIERS } from '../data/item-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
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

/** The fields items gain with decision 0015's item model; absent, an item is standard-rated, fixed-price, untracked, without modifiers. */
type LaterFields = Partial<{
  taxTreatment: string | null;
  taxRate: string | null;
  priceType: string | null;
  inventory: bigint | null;
  modifiers: unknown;
}>;

/**
 * The organisation's items of these ids, as orders read them: the one place order code touches the
 * item model. Another organisation's id is simply not found.
 */
export async function readOrderItems(
  prisma: PrismaClient,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, OrderItem>> {
  if (ids.length === 0) return new Map();
  const rows = await prisma.item.findMany({ where: { organizationId, id: { in: [...new Set(ids)] } }, include: WITH_MODIFIERS });
  return new Map(
    rows.map((row) => {
      const later = row as typeof row & LaterFields;
      const item: OrderItem = {
        id: row.id,
        name: row.name,
        priceCents: row.priceCents,
        currency: row.currency,
        available: row.available,
        taxTreatment: (later.taxTreatment || 'standard') as TaxTreatment,
        taxRate: later.taxRate ?? '',
        priceType: (later.priceType || 'fixed') as OrderItem['priceType'],
        inventory: later.inventory ?? null,
        modifiers: modifiersOf(later.modifiers),
      };
      return [row.id, item];
    }),
  );
}

function modifiersOf(value: unknown): OrderItemModifier[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    const modifier = entry as Partial<{
      id: string;
      name: string;
      priceCents: bigint | number | string;
      price_cents: number | string;
      group: string;
    }>;
    const price = modifier.priceCents ?? modifier.price_cents;
    if (!modifier.id || !modifier.name || price === undefined) return [];
    return [{ id: modifier.id, name: modifier.name, priceCents: BigInt(price), group: modifier.group ?? '' }];
  });
}
