import { invalidInput } from '@ctk/shared';
import { FEED_CONTEXT, type FeedDocument, type FeedItem, type JsonObject } from './feed-document.js';
import { formatPrice } from './feed-price.js';
import { feedId } from './feed-schema.js';
import { normalPublicKey } from './feed-signature.js';
import { geohashCells } from './geohash-cells.js';
import { parseFeed } from './parse-feed.js';

/** One catalog item as the catalog holds it. */
export type FeedItemSource = {
  id: string;
  name: string;
  description: string;
  priceMinor: number;
  currency: string;
  satoshis: number | null;
  category: string | null;
  inventory: number | null;
  available: boolean;
  images: string[];
  updatedAt: Date;
};

/** Everything a merchant's feed says, as the publishing instance knows it. */
export type FeedSource = {
  originUrl: string;
  originPublicKey: string;
  handle: string;
  name: string;
  description?: string;
  url?: string;
  image?: string;
  latitude: number | null;
  longitude: number | null;
  category: string | null;
  timeZone: string;
  hours: object;
  openingHours: object[];
  paymail: string | null;
  identityKey: string | null;
  items: FeedItemSource[];
  sequence: number;
  publishedAt: Date;
  rateAt: Date | null;
};

/**
 * The unsigned feed (no `proof`) of a merchant. Texts are trimmed, keys spelled compressed lower-case,
 * the origin as the URL standard spells it, dates to the second, a negative inventory as 0; the result
 * is then read by {@link parseFeed}, so what is built is always a feed any instance accepts
 * (`validation_failed` naming the feed's field otherwise). Items stay in the order given.
 */
export function buildFeed(source: FeedSource): FeedDocument {
  const origin = URL.canParse(source.originUrl) ? new URL(source.originUrl).origin : source.originUrl;
  const handle = source.handle;
  const geo = place(source.latitude, source.longitude);
  const doc: FeedDocument = {
    '@context': FEED_CONTEXT,
    '@type': 'DataFeed',
    '@id': feedId(origin, handle),
    identifier: handle,
    dateModified: instant(source.publishedAt),
    'ctk:sequence': source.sequence,
    'ctk:origin': { url: origin, publicKey: key(source.originPublicKey) },
    about: {
      '@type': 'LocalBusiness',
      identifier: handle,
      name: source.name.trim(),
      ...(source.description?.trim() ? { description: source.description.trim() } : {}),
      ...(source.url ? { url: source.url } : {}),
      ...(source.image ? { image: source.image } : {}),
      ...(geo ? { geo: { '@type': 'GeoCoordinates', ...geo }, 'ctk:geohash': geohashCells(geo.latitude, geo.longitude) } : {}),
      ...(source.category?.trim() ? { 'ctk:category': source.category.trim() } : {}),
      'ctk:timeZone': source.timeZone,
      'ctk:hours': source.hours as JsonObject,
      openingHoursSpecification: source.openingHours as JsonObject[],
      ...(source.paymail ? { 'ctk:paymail': source.paymail } : {}),
      ...(source.identityKey ? { 'ctk:publicKey': key(source.identityKey) } : {}),
    },
    dataFeedElement: source.items.map(feedItem),
    ...(source.rateAt ? { 'ctk:rateAt': instant(source.rateAt) } : {}),
  };
  return parseFeed(doc, { maxItems: source.items.length });
}

function feedItem(source: FeedItemSource): FeedItem {
  return {
    '@type': 'Product',
    productID: source.id,
    name: source.name.trim(),
    description: source.description,
    ...(source.category?.trim() ? { category: source.category.trim() } : {}),
    image: source.images,
    dateModified: instant(source.updatedAt),
    offers: {
      '@type': 'Offer',
      price: formatPrice(source.priceMinor, source.currency),
      priceCurrency: source.currency,
      'ctk:priceMinor': source.priceMinor,
      ...(source.satoshis !== null ? { 'ctk:satoshis': source.satoshis } : {}),
      availability: source.available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      ...(source.inventory !== null ? { inventoryLevel: { '@type': 'QuantitativeValue', value: Math.max(0, source.inventory) } } : {}),
    },
  };
}

/** A place needs both coordinates: one without the other is a mistake, not a place. */
function place(latitude: number | null, longitude: number | null): { latitude: number; longitude: number } | null {
  if (latitude === null && longitude === null) return null;
  if (latitude === null || longitude === null) {
    throw invalidInput([{ field: latitude === null ? 'latitude' : 'longitude', message: 'latitude and longitude come together' }], 'feed');
  }
  return { latitude, longitude };
}

/** ISO 8601 UTC to the second: "2026-11-28T10:00:00Z" (a feed's times need no milliseconds, and NIP-99 counts seconds). */
function instant(date: Date): string {
  if (Number.isNaN(date.getTime())) throw invalidInput([{ field: 'dateModified', message: 'must be a valid date' }], 'feed');
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A public key as the feed spells it (compressed, lower-case); left as given when it is none, for the schema to name. */
function key(hex: string): string {
  return normalPublicKey(hex.toLowerCase()) ?? hex;
}
