import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { distanceFrom, inCells } from './geo-sql.js';

/** What discovery shows of a feed: everything but its document. */
export type MerchantRow = {
  id: string;
  handle: string;
  name: string;
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  origin_url: string;
  local: boolean;
  paymail: string | null;
  time_zone: string;
  hours: unknown;
  item_count: number;
  published_at: Date;
  distance_m?: number;
};

const ITEM_COLUMNS = Prisma.sql`i.product_id, i.name, i.description, i.category, i.price_minor, i.currency, i.satoshis, i.available,
  i.images, f.id AS merchant_id, f.name AS merchant_name, f.origin_url`;
const MERCHANT_COLUMNS = Prisma.sql`id, handle, name, category, latitude, longitude, origin_url, local, paymail, time_zone, hours, item_count, published_at`;

export function createDiscoveryQueries(prisma: PrismaClient) {
  return {
    /** Merchants in the cells around a place and within the radius, nearest first. */
    nearby(cells: readonly string[], latitude: number, longitude: number, radiusM: number, limit: number): Promise<MerchantRow[]> {
      return prisma.$queryRaw<MerchantRow[]>`
        SELECT * FROM (SELECT ${MERCHANT_COLUMNS}, ${distanceFrom(latitude, longitude)} AS distance_m FROM feeds WHERE ${inCells(cells)}) near
        WHERE distance_m <= ${radiusM} ORDER BY distance_m, id LIMIT ${limit}`;
    },
    /** Merchants whose name or category has every word (a word may be the start of one), best first. */
    merchantsMatching(query: string, limit: number): Promise<MerchantRow[]> {
      return prisma.$queryRaw<MerchantRow[]>`
        SELECT ${MERCHANT_COLUMNS} FROM feeds WHERE search @@ to_tsquery('simple', ${query})
        ORDER BY ts_rank(search, to_tsquery('simple', ${query})) DESC, local DESC, id LIMIT ${limit}`;
    },
    /** Items whose name, description or category has every word, best first, with their merchant's name. */
    itemsMatching(query: string, limit: number) {
      return prisma.$queryRaw<ItemRow[]>`
        SELECT ${ITEM_COLUMNS} FROM feed_items i JOIN feeds f ON f.id = i.feed_id
        WHERE i.search @@ to_tsquery('simple', ${query})
        ORDER BY ts_rank(i.search, to_tsquery('simple', ${query})) DESC, f.local DESC, i.feed_id, i.position LIMIT ${limit}`;
    },
    /** The merchants named first (this instance's featured handles, in order), then the most recently published. */
    async featured(handles: readonly string[], limit: number): Promise<MerchantRow[]> {
      const named = handles.length
        ? await prisma.$queryRaw<MerchantRow[]>`SELECT ${MERCHANT_COLUMNS} FROM feeds WHERE local AND handle IN (${Prisma.join(handles)})`
        : [];
      const chosen = handles.flatMap((handle) => named.filter((row) => row.handle === handle));
      const rest = await prisma.$queryRaw<MerchantRow[]>`
        SELECT ${MERCHANT_COLUMNS} FROM feeds WHERE item_count > 0 ORDER BY published_at DESC, id LIMIT ${limit}`;
      const seen = new Set(chosen.map((row) => row.id));
      return [...chosen, ...rest.filter((row) => !seen.has(row.id))].slice(0, limit);
    },
    categories(): Promise<{ name: string; merchants: bigint }[]> {
      return prisma.$queryRaw`SELECT category AS name, count(*) AS merchants FROM feeds WHERE category IS NOT NULL GROUP BY category ORDER BY count(*) DESC, category`;
    },
    inCategory(category: string, limit: number): Promise<MerchantRow[]> {
      return prisma.$queryRaw<MerchantRow[]>`
        SELECT ${MERCHANT_COLUMNS} FROM feeds WHERE lower(category) = lower(${category}) ORDER BY local DESC, published_at DESC, id LIMIT ${limit}`;
    },
    async merchant(id: string): Promise<MerchantRow | undefined> {
      const [row] = await prisma.$queryRaw<MerchantRow[]>`SELECT ${MERCHANT_COLUMNS} FROM feeds WHERE id = ${id}`;
      return row;
    },
    /** A feed's items in the order it lists them. */
    itemsOf(feedId: string, limit: number) {
      return prisma.$queryRaw<ItemRow[]>`
        SELECT ${ITEM_COLUMNS} FROM feed_items i JOIN feeds f ON f.id = i.feed_id WHERE i.feed_id = ${feedId} ORDER BY i.position LIMIT ${limit}`;
    },
  };
}

export type DiscoveryQueries = ReturnType<typeof createDiscoveryQueries>;

export type ItemRow = {
  product_id: string;
  name: string;
  description: string;
  category: string | null;
  price_minor: bigint;
  currency: string;
  satoshis: bigint | null;
  available: boolean;
  images: string[];
  merchant_id: string;
  merchant_name: string;
  origin_url: string;
};
