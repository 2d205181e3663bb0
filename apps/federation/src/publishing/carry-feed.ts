import { AppError } from '@ctk/shared';
import type { FeedSummary } from '@ctk/proto/ctk/federation/v1/federation';
import { saveFeed } from '../data/feed-store.js';
import { parseFeed, verifyFeed, type FeedDocument } from '../feeds/index.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { InstanceIdentity } from '../instance/instance-identity.js';
import { confirmPeer, type PeerContext } from '../peers/peer-directory.js';
import { carriedFeedId, feedRecord, toFeedSummary } from './feed-record.js';

export type CarryContext = {
  prisma: PrismaClient;
  identity: () => Promise<InstanceIdentity>;
  peers: PeerContext;
  maxItems: number;
  /** The most feeds carried from one origin. */
  feedsPerPeer: number;
};

/**
 * Carries a signed feed: read strictly, every proof verified, and its origin's key confirmed (this
 * instance's own, or the key the origin instance vouches for at its own URL). A feed of this instance's
 * own merchant comes back only signed by its merchant too, over the digest published last.
 * `knownKey`: the origin's key already confirmed (a pull from that very peer).
 */
export async function carryFeed(context: CarryContext, input: unknown, knownKey?: string): Promise<FeedSummary> {
  const doc = parseFeed(input, { maxItems: context.maxItems });
  const { digest, merchantSigned } = verifyFeed(doc);
  const own = await context.identity();
  const id = carriedFeedId(doc, own.url);
  const origin = doc['ctk:origin'];
  if (new URL(origin.url).origin === own.url) return carryOwn(context, doc, own, { id, digest, merchantSigned });
  const key = knownKey ?? (await confirmPeer(context.peers, origin.url, 'feed.ctk:origin.url'));
  if (key !== origin.publicKey)
    throw new AppError('validation_failed', `The instance at ${origin.url} signs with another key than the feed's ctk:origin.publicKey.`, {
      field: 'feed.ctk:origin.publicKey',
    });
  const record = feedRecord(doc, { id, organizationId: null, digest, merchantSigned });
  const known = await context.prisma.feed.count({ where: { id } });
  if (!known && (await context.prisma.feed.count({ where: { originUrl: record.feed.originUrl } })) >= context.feedsPerPeer)
    throw new AppError('rate_limited', `This instance carries at most ${context.feedsPerPeer} feeds from ${record.feed.originUrl}.`, {
      field: 'feed',
    });
  const { row } = await saveFeed(context.prisma, record.feed, record.items);
  return toFeedSummary(row);
}

async function carryOwn(
  context: CarryContext,
  doc: FeedDocument,
  own: InstanceIdentity,
  facts: { id: string; digest: string; merchantSigned: boolean },
): Promise<FeedSummary> {
  if (doc['ctk:origin'].publicKey !== own.publicKey)
    throw new AppError('validation_failed', 'The feed names this instance as its origin but another key: it was not signed here.', {
      field: 'feed.ctk:origin.publicKey',
    });
  const kept = await context.prisma.feed.findUnique({ where: { id: facts.id } });
  if (!kept?.organizationId)
    throw new AppError('not_found', `This instance has published no feed "${facts.id}".`, { field: 'feed.identifier' });
  if (kept.digest !== facts.digest)
    throw new AppError('conflict', `Feed ${facts.id} was published again since: sign its current digest (${kept.digest}).`, {
      field: 'feed',
    });
  if (!facts.merchantSigned)
    throw new AppError('validation_failed', 'This instance signed this feed already: submit it again only with its merchant proof.', {
      field: 'feed.proof',
    });
  const record = feedRecord(doc, { ...facts, organizationId: kept.organizationId });
  const { row } = await saveFeed(context.prisma, record.feed, record.items);
  return toFeedSummary(row);
}
