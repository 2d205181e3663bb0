import type { FeedSummary } from '@ctk/proto/ctk/federation/v1/federation';
import type { FeedItemRow, FeedRow } from '../data/feed-store.js';
import { placeHash } from '../discovery/nearby-cells.js';
import type { FeedDocument } from '../feeds/index.js';
import type { Prisma } from '../generated/prisma/client.js';

/** A feed's id on this instance: its handle for this instance's merchants, handle@host for a peer's. */
export function carriedFeedId(doc: FeedDocument, ownUrl: string): string {
  const origin = new URL(doc['ctk:origin'].url);
  return origin.origin === new URL(ownUrl).origin ? doc.identifier : `${doc.identifier}@${origin.host}`;
}

/** The row and items a verified feed is kept as (what discovery reads), beside the document itself. */
export function feedRecord(
  doc: FeedDocument,
  facts: { id: string; organizationId: string | null; digest: string; merchantSigned: boolean },
): { feed: FeedRow; items: FeedItemRow[] } {
  const business = doc.about;
  const geo = business.geo;
  const feed: FeedRow = {
    id: facts.id,
    handle: doc.identifier,
    organizationId: facts.organizationId,
    originUrl: new URL(doc['ctk:origin'].url).origin,
    originPublicKey: doc['ctk:origin'].publicKey,
    local: facts.organizationId !== null,
    sequence: BigInt(doc['ctk:sequence']),
    digest: facts.digest,
    merchantSigned: facts.merchantSigned,
    name: business.name,
    category: business['ctk:category'] ?? null,
    latitude: geo?.latitude ?? null,
    longitude: geo?.longitude ?? null,
    geohash: geo ? placeHash(geo.latitude, geo.longitude) : null,
    paymail: business['ctk:paymail'] ?? null,
    timeZone: business['ctk:timeZone'],
    hours: business['ctk:hours'] as Prisma.InputJsonValue,
    document: doc as unknown as Prisma.InputJsonValue,
    itemCount: doc.dataFeedElement.length,
    publishedAt: new Date(doc.dateModified),
  };
  const items = doc.dataFeedElement.map((item, position): FeedItemRow => ({
    productId: item.productID,
    position,
    name: item.name,
    description: item.description,
    category: item.category ?? null,
    priceMinor: BigInt(item.offers['ctk:priceMinor']),
    currency: item.offers.priceCurrency,
    satoshis: item.offers['ctk:satoshis'] === undefined ? null : BigInt(item.offers['ctk:satoshis']),
    available: item.offers.availability === 'https://schema.org/InStock',
    images: item.image,
  }));
  return { feed, items };
}

/** A kept feed as the API lists it. */
export function toFeedSummary(row: Prisma.FeedGetPayload<object>): FeedSummary {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    originUrl: row.originUrl,
    originPublicKey: row.originPublicKey,
    local: row.local,
    sequence: row.sequence,
    itemCount: BigInt(row.itemCount),
    digest: row.digest,
    merchantSigned: row.merchantSigned,
    publishedAt: row.publishedAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    feedUrl: `${row.originUrl}/api/v1/feeds/${row.handle}`,
  };
}
