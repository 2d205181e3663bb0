import type { Org } from '@ctk/shared';
import type { FeedCatalogItem, GetFeedCatalogResponse } from '@ctk/proto/ctk/pos/v1/pos';
import type { PrismaClient } from '../generated/prisma/client.js';
import { satoshisFor, type ExchangeRate, type PriceSource } from '../rates/exchange-rate.js';

/** The most items a catalog feed lists (federation refuses larger feeds from peers too). */
export const FEED_ITEM_LIMIT = 10_000;

/**
 * The items an organisation's catalog feed lists, oldest first, each with its price in satoshis at the
 * current rate of its currency (rounded up, as an order's). A currency without a rate leaves its items'
 * satoshis out rather than failing the feed; `rateAt` is the oldest rate used.
 */
export async function getFeedCatalog(prisma: PrismaClient, prices: PriceSource, org: Org): Promise<GetFeedCatalogResponse> {
  const rows = await prisma.item.findMany({
    where: { organizationId: org.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: FEED_ITEM_LIMIT,
  });
  const rates = new Map<string, ExchangeRate | null>();
  for (const currency of new Set(rows.map((row) => row.currency))) rates.set(currency, await prices.rateFor(currency).catch(() => null));
  const items = rows.map((row): FeedCatalogItem => {
    const rate = rates.get(row.currency);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      priceMinor: row.priceCents,
      currency: row.currency,
      category: row.category ?? undefined,
      available: row.available && (row.inventory === null || row.inventory > 0n),
      inventory: row.inventory ?? undefined,
      satoshis: rate ? satoshisFor(row.priceCents, rate.rate) : undefined,
    };
  });
  const times = [...rates.values()].flatMap((rate) => (rate ? [rate.at.getTime()] : []));
  return { items, rateAt: times.length ? new Date(Math.min(...times)) : undefined };
}
