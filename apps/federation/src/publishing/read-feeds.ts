import { AppError } from '@ctk/shared';
import type { GetFeedResponse, ListFeedsRequest, ListFeedsResponse } from '@ctk/proto/ctk/federation/v1/federation';
import { limitOf } from '../discovery/discover.js';
import { nip99Events, nostrSecretKey, type FeedDocument } from '../feeds/index.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { InstanceIdentity } from '../instance/instance-identity.js';
import { toFeedSummary } from './feed-record.js';

/** The feeds this instance carries (or, with origin "self", originates), by id, a page at a time. */
export async function listFeeds(prisma: PrismaClient, request: ListFeedsRequest): Promise<ListFeedsResponse> {
  const limit = limitOf(request.limit || undefined, 50, 100);
  const after = request.cursor ? Buffer.from(request.cursor, 'base64url').toString('utf8') : undefined;
  const rows = await prisma.feed.findMany({
    where: { ...(request.origin === 'self' ? { local: true } : {}), ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: 'asc' },
    take: limit + 1,
    omit: { document: true, hours: true },
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    feeds: page.map((row) => toFeedSummary({ ...row, document: null, hours: null })),
    nextCursor: rows.length > limit && last ? Buffer.from(last.id, 'utf8').toString('base64url') : undefined,
  };
}

/** One feed with its document exactly as signed. */
export async function getFeed(prisma: PrismaClient, feedId: string): Promise<GetFeedResponse> {
  const row = await prisma.feed.findUnique({ where: { id: feedId } });
  if (!row) throw new AppError('not_found', `This instance carries no feed "${feedId}".`, { field: 'feed_id' });
  return { summary: toFeedSummary(row), document: row.document as Record<string, unknown> };
}

/** A feed's items as NIP-99 listings, signed with this instance's key (only for the feeds it originates). */
export async function getFeedNostrEvents(prisma: PrismaClient, identity: InstanceIdentity, feedId: string) {
  const row = await prisma.feed.findUnique({ where: { id: feedId }, select: { document: true, local: true } });
  if (!row) throw new AppError('not_found', `This instance carries no feed "${feedId}".`, { field: 'feed_id' });
  if (!row.local)
    throw new AppError('not_found', `Feed "${feedId}" is another instance's: ask its origin for its Nostr listings.`, { field: 'feed_id' });
  const events = nip99Events(row.document as unknown as FeedDocument, nostrSecretKey(identity.key));
  return { events: events as unknown as Record<string, unknown>[] };
}
