import { invalidInput } from '@ctk/shared';
import type { FeedDocument } from './feed-document.js';
import { feedIssues } from './feed-issues.js';
import { feedSchema } from './feed-schema.js';

/** What a caller bounds a feed by. */
export type FeedLimits = { maxItems: number };

const schemas = new Map<number, ReturnType<typeof feedSchema>>();

/**
 * Reads a feed from untrusted JSON: the whole document, strictly (an unknown member anywhere is refused,
 * except inside the opaque `ctk:hours` and `openingHoursSpecification`, which are bounded in size), with
 * every text, URL, key, amount and identifier bounded. Changes nothing (no trimming, no defaults), so the
 * result has the digest the input had. `validation_failed` naming each bad field (`feed.about.name`).
 * It does not check the proofs: {@link verifyFeed} does.
 */
export function parseFeed(input: unknown, limits: FeedLimits): FeedDocument {
  const { maxItems } = limits;
  // Refused before reading any item: a feed of a million items costs nothing to turn away.
  const elements = (input as { dataFeedElement?: unknown } | null)?.dataFeedElement;
  if (Array.isArray(elements) && elements.length > maxItems) {
    throw invalidInput([{ field: 'feed.dataFeedElement', message: `must hold at most ${maxItems} items` }], 'feed');
  }
  let schema = schemas.get(maxItems);
  if (!schema) {
    if (schemas.size >= 16) schemas.clear(); // a limit is configuration: a few values at most
    schemas.set(maxItems, (schema = feedSchema(maxItems)));
  }
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(feedIssues(result.error.issues), 'feed');
  const doc: FeedDocument = result.data;
  return doc;
}
