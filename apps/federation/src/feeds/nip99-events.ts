import { PrivateKey } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import type { NostrEvent } from 'nostr-tools';
import { finalizeEvent, getPublicKey } from 'nostr-tools/pure';
import type { FeedDocument, FeedItem } from './feed-document.js';

/** NIP-99's kind for a classified listing (parameterized replaceable: a listing is replaced by its `d` tag). */
export const CLASSIFIED_LISTING = 30402;

/** How long a listing's summary is at most, in characters. */
const SUMMARY_LENGTH = 200;

/** The 32 bytes of a secp256k1 key as Nostr takes them: Nostr clients then see the key's x-only public key. */
export function nostrSecretKey(key: PrivateKey): Uint8Array {
  return Uint8Array.from(key.toArray('be', 32));
}

/**
 * A feed's items as NIP-99 classified listings (kind 30402), one signed event per item, derived from the feed.
 * `secretKey` is the instance's own key (see {@link nostrSecretKey}), so the events' pubkey is the x-only form of
 * `ctk:origin.publicKey`: `failed_precondition` otherwise. Each event points back to the canonical feed (an `r` tag).
 * The events are plain JSON-ready objects (no nostr-tools verified mark), ready to send to relays.
 */
export function nip99Events(doc: FeedDocument, secretKey: Uint8Array): NostrEvent[] {
  if (getPublicKey(secretKey) !== doc['ctk:origin'].publicKey.slice(2)) {
    throw new AppError('failed_precondition', "The Nostr key is not the feed's origin key (ctk:origin.publicKey).", {
      field: 'ctk:origin.publicKey',
    });
  }
  const publishedAt = String(seconds(doc.dateModified));
  return doc.dataFeedElement.map((item) => {
    const template = {
      kind: CLASSIFIED_LISTING,
      created_at: seconds(item.dateModified),
      tags: tags(doc, item, publishedAt),
      content: item.description,
    };
    // Plain events, without nostr-tools' cached "verified" mark: a copy changed later must not pass verifyEvent on that mark.
    const { id, pubkey, created_at, kind, tags: signedTags, content, sig } = finalizeEvent(template, secretKey);
    return { id, pubkey, created_at, kind, tags: signedTags, content, sig };
  });
}

/** The tags NIP-99 names, and an `r` tag pointing to the canonical feed. */
function tags(feed: FeedDocument, item: FeedItem, published: string): string[][] {
  const business = feed.about;
  const summary = summaryOf(item.description);
  return [
    ['d', item.productID],
    ['title', item.name],
    ...(summary ? [['summary', summary]] : []),
    ['published_at', published],
    ['price', item.offers.price, item.offers.priceCurrency],
    ...(item.category ? [['t', item.category.toLowerCase()]] : []),
    ...item.image.map((url) => ['image', url]),
    ...(business['ctk:geohash'] ?? []).map((cell) => ['g', cell]),
    ['location', business.name],
    ['r', feed['@id']],
  ];
}

/** The description's first non-empty line, at most {@link SUMMARY_LENGTH} characters (whole code points). */
function summaryOf(description: string): string {
  const first = description.split(/\r?\n|\r/).find((text) => text.trim() !== '') ?? '';
  return Array.from(first.trim()).slice(0, SUMMARY_LENGTH).join('');
}

function seconds(isoInstant: string): number {
  return Math.floor(Date.parse(isoInstant) / 1000);
}
