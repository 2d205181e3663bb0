import { AppError, isUniqueViolation, retryLostRace } from '@ctk/shared';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type FeedRow = Prisma.FeedUncheckedCreateInput;
export type FeedItemRow = Omit<Prisma.FeedItemCreateManyInput, 'feedId'>;
export type SavedFeed = { saved: boolean; row: Prisma.FeedGetPayload<object> };

/**
 * Keeps a feed as last signed, with its items, in one transaction under the feed's row lock: a sequence
 * below the one kept is refused (409 conflict: an older copy arriving late never replaces a newer one), the
 * same sequence with the same digest is kept as it is (a pull or a push repeated), and the same sequence
 * with another digest is refused (an origin never signs two versions under one number); the same version
 * signed by its merchant too replaces the document with the one holding both proofs.
 */
export async function saveFeed(prisma: PrismaClient, feed: FeedRow, items: FeedItemRow[]): Promise<SavedFeed> {
  return retryLostRace(async () => {
    try {
      return await prisma.$transaction(
        async (tx) => {
          const [kept] = await tx.$queryRaw<{ sequence: bigint; digest: string; origin_public_key: string; merchant_signed: boolean }[]>`
            SELECT sequence, digest, origin_public_key, merchant_signed FROM feeds WHERE id = ${feed.id} FOR UPDATE`;
          if (kept) {
            if (kept.origin_public_key !== feed.originPublicKey)
              throw new AppError(
                'conflict',
                `Feed ${feed.id} is signed by another instance's key than the one this instance carries it from.`,
                {
                  field: 'feed',
                },
              );
            const sequence = BigInt(feed.sequence as bigint);
            if (sequence < kept.sequence || (sequence === kept.sequence && kept.digest !== feed.digest))
              throw new AppError(
                'conflict',
                `Feed ${feed.id} is already carried at sequence ${kept.sequence}; this copy is older or differs under the same sequence.`,
                {
                  field: 'feed',
                  sequence: Number(kept.sequence),
                },
              );
            if (sequence === kept.sequence) {
              // The same version again; signed by its merchant too, it keeps the proofs that say so.
              if (!feed.merchantSigned || kept.merchant_signed)
                return { saved: false, row: await tx.feed.findUniqueOrThrow({ where: { id: feed.id } }) };
              const row = await tx.feed.update({ where: { id: feed.id }, data: { document: feed.document, merchantSigned: true } });
              return { saved: true, row };
            }
            await tx.feedItem.deleteMany({ where: { feedId: feed.id } });
          }
          const row = await tx.feed.upsert({ where: { id: feed.id }, create: feed, update: { ...feed, receivedAt: new Date() } });
          await insertItems(tx, feed.id, items);
          return { saved: true, row };
        },
        { timeout: 60_000 },
      );
    } catch (error) {
      // Two first copies at once: the loser reads the winner's on its next try.
      if (isUniqueViolation(error)) throw Object.assign(new Error('lost the first insert'), { code: 'P2034' });
      throw error;
    }
  });
}

/**
 * A feed's items in one statement, whatever their number: the rows travel as one JSON parameter and
 * PostgreSQL spreads them (jsonb_to_recordset). Prisma's createMany binds every field of every row as a
 * parameter and splits into batches: seconds for 10,000 items, where this is the database's own time.
 */
async function insertItems(tx: Prisma.TransactionClient, feedId: string, items: FeedItemRow[]): Promise<void> {
  if (items.length === 0) return;
  const rows = JSON.stringify(
    items.map((item) => ({
      ...item,
      priceMinor: String(item.priceMinor),
      satoshis: item.satoshis === null ? null : String(item.satoshis),
    })),
  );
  await tx.$executeRaw`
    INSERT INTO feed_items (feed_id, product_id, position, name, description, category, price_minor, currency, satoshis, available, images)
    SELECT ${feedId}, r."productId", r.position, r.name, r.description, r.category, r."priceMinor", r.currency, r.satoshis, r.available,
           ARRAY(SELECT jsonb_array_elements_text(r.images))
    FROM jsonb_to_recordset(${rows}::jsonb) AS r("productId" text, position int, name text, description text, category text,
      "priceMinor" bigint, currency text, satoshis bigint, available boolean, images jsonb)`;
}
