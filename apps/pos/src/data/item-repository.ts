import { AppError, isUniqueViolation, type CursorPosition, type SqlQueries } from '@ctk/shared';
import type { Item as ItemRow, ItemModifier, PrismaClient } from '../generated/prisma/client.js';

/** An item with its modifiers, in the order they were given. */
export type Item = ItemRow & { modifiers: ItemModifier[] };
export type NewModifier = Pick<ItemModifier, 'name' | 'priceCents' | 'group'>;
export type NewItem = Pick<
  ItemRow,
  | 'organizationId'
  | 'name'
  | 'description'
  | 'priceCents'
  | 'currency'
  | 'category'
  | 'sku'
  | 'available'
  | 'taxTreatment'
  | 'taxRate'
  | 'priceType'
  | 'inventory'
> & { modifiers: NewModifier[] };
export type ItemRepository = ReturnType<typeof createItemRepository>;

/** What every read of an item includes: its modifiers, in order. */
export const WITH_MODIFIERS = { modifiers: { orderBy: { position: 'asc' } } } as const;

/**
 * Items over Prisma. First pages of a listing (what a menu screen or a customer's phone asks for, over
 * and over) are kept in memory for `firstPageTtlMs`; a write through this repository drops the
 * organisation's pages at once, and other replicas see it within the TTL.
 */
export function createItemRepository(prisma: PrismaClient, options: { firstPageTtlMs: number } = { firstPageTtlMs: 0 }) {
  const firstPages = new Map<string, { rows: Promise<Item[]>; expiresAt: number }>();
  const forget = (organizationId: string) => {
    for (const key of firstPages.keys()) if (key.startsWith(`${organizationId}|`)) firstPages.delete(key);
  };
  return {
    async create({ modifiers, ...item }: NewItem): Promise<Item> {
      try {
        const created = await prisma.item.create({
          data: { ...item, modifiers: { create: modifiers.map((modifier, position) => ({ ...modifier, position })) } },
          include: WITH_MODIFIERS,
        });
        forget(item.organizationId);
        return created;
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError('already_exists', `An item with sku "${item.sku}" already exists in this organisation`, { field: 'sku' });
        }
        throw error;
      }
    },

    list(organizationId: string, take: number, after?: CursorPosition): Promise<Item[]> {
      if (after || options.firstPageTtlMs <= 0) return query(organizationId, take, after);
      const key = `${organizationId}|${take}`;
      const hit = firstPages.get(key);
      if (hit && hit.expiresAt > Date.now()) return hit.rows;
      if (firstPages.size >= 10_000) firstPages.clear();
      const rows = query(organizationId, take);
      firstPages.set(key, { rows, expiresAt: Date.now() + options.firstPageTtlMs });
      rows.catch(() => firstPages.delete(key));
      return rows;
    },

    /** The ids, of those given (UUIDs), that are items of this organisation. */
    async ownedIds(organizationId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await prisma.item.findMany({ where: { organizationId, id: { in: [...ids] } }, select: { id: true } });
      return new Set(rows.map((row) => row.id));
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.item.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },
  };

  /** Newest first, ties broken by id, starting after `after` when given. */
  function query(organizationId: string, take: number, after?: CursorPosition): Promise<Item[]> {
    const afterWhere = after && {
      OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }],
    };
    return prisma.item.findMany({
      where: { organizationId, ...afterWhere },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take,
      include: WITH_MODIFIERS,
    });
  }
}

/**
 * The units of a paid order leave the stock of the tracked items, in the payment's transaction. A count
 * never goes below zero: a sale already paid is not undone, and an order is refused up front when it asks
 * for more than is left. Listings cached by another process show it within their TTL.
 */
export async function takeFromStock(
  tx: SqlQueries,
  organizationId: string,
  lines: readonly { itemId: string | null; quantity: bigint }[],
): Promise<void> {
  const taken = lines.filter((line): line is { itemId: string; quantity: bigint } => line.itemId !== null);
  if (taken.length === 0) return;
  await tx.rows(TAKE_FROM_STOCK, [organizationId, taken.map((line) => line.itemId), taken.map((line) => line.quantity.toString())]);
}

/** $1 organisation, $2 the lines' items, $3 their quantities (digits): an item on several lines is taken once, for them all. */
const TAKE_FROM_STOCK = `UPDATE items i SET inventory = GREATEST(i.inventory - taken.quantity, 0)
  FROM (SELECT id, sum(quantity)::bigint AS quantity FROM unnest($2::uuid[], $3::bigint[]) AS line(id, quantity) GROUP BY id) taken
  WHERE i.id = taken.id AND i.organization_id = $1::uuid AND i.inventory IS NOT NULL`;

/** The currency of the organisation's newest item, if it has any (a prepaid card's default currency, decision 0017). */
export async function newestItemCurrency(prisma: PrismaClient, organizationId: string): Promise<string | undefined> {
  const item = await prisma.item.findFirst({ where: { organizationId }, orderBy: { createdAt: 'desc' }, select: { currency: true } });
  return item?.currency;
}

/** What an order reads of an item: its modifiers' prices as strings of digits (json would lose digits past 2^53). */
export type ItemForOrder = Pick<
  ItemRow,
  'id' | 'name' | 'priceCents' | 'currency' | 'available' | 'taxTreatment' | 'taxRate' | 'priceType' | 'inventory'
> & { modifiers: { id: string; name: string; priceCents: string; group: string | null }[] };

const ITEMS_FOR_ORDER = `SELECT i.id, i.name, i.price_cents, i.currency, i.available, i.tax_treatment, i.tax_rate, i.price_type,
    i.inventory,
    COALESCE((SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'priceCents', m.price_cents::text, 'group', m."group")
      ORDER BY m.position) FROM item_modifiers m WHERE m.item_id = i.id), '[]') AS modifiers
  FROM items i WHERE i.organization_id = $1::uuid AND i.id = ANY($2::uuid[])`;

/**
 * The organisation's items among `ids` (UUIDs) as an order reads them, with their modifiers in order: every
 * order asks, so in one statement without Prisma's client (decision 0048). Another organisation's id is not among them.
 */
export function itemsForOrder(sql: SqlQueries, organizationId: string, ids: readonly string[]): Promise<ItemForOrder[]> {
  return sql.rows(ITEMS_FOR_ORDER, [organizationId, [...new Set(ids)]]);
}

/** The organisation's items among `ids`, with their modifiers; another organisation's id is not among them. */
export function itemsByIds(prisma: PrismaClient, organizationId: string, ids: readonly string[]): Promise<Item[]> {
  return prisma.item.findMany({ where: { organizationId, id: { in: [...new Set(ids)] } }, include: WITH_MODIFIERS });
}
