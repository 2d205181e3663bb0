import type { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import type { FeedSummary, ShopProfile } from '@ctk/proto/ctk/federation/v1/federation';
import { AppError, type GrpcClient, type Logger, type Org } from '@ctk/shared';
import { saveFeed } from '../data/feed-store.js';
import { buildFeed, signFeed } from '../feeds/index.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { InstanceIdentity } from '../instance/instance-identity.js';
import { openingHoursSpecification } from '../open-sign/opening-hours-specification.js';
import { readHours } from '../open-sign/shop-hours.js';
import { feedRecord, toFeedSummary } from './feed-record.js';

export type PublishContext = {
  prisma: PrismaClient;
  pos: GrpcClient<typeof PosServiceDefinition>;
  p2p: GrpcClient<typeof P2pServiceDefinition>;
  identity: () => Promise<InstanceIdentity>;
  now: () => Date;
  logger: Logger;
};

/**
 * Publishes an organisation's one canonical feed: its profile (the gateway's), hours (its own), items at
 * today's rates (pos's) and identity key (p2p's), signed by this instance under the next sequence. Its
 * merchant may then sign the same digest with its identity key and submit the feed again.
 */
export async function publishFeed(context: PublishContext, org: Org, profile: ShopProfile | undefined): Promise<FeedSummary> {
  if (!profile) throw new AppError('internal', 'the gateway gave no shop profile');
  const [hours, catalog, wallets, kept, identity] = await Promise.all([
    readHours(context.prisma, org, context.now()),
    context.pos.getFeedCatalog({ org }),
    context.p2p.getWallets({ organizationIds: [org.id] }),
    context.prisma.feed.findUnique({ where: { organizationId: org.id }, select: { sequence: true } }),
    context.identity(),
  ]);
  const now = context.now();
  const doc = buildFeed({
    originUrl: identity.url,
    originPublicKey: identity.publicKey,
    handle: org.handle,
    name: profile.name,
    ...(profile.avatarUrl ? { image: profile.avatarUrl } : {}),
    latitude: profile.latitude ?? null,
    longitude: profile.longitude ?? null,
    category: profile.category ?? null,
    timeZone: profile.timeZone,
    hours,
    openingHours: openingHoursSpecification(hours),
    paymail: profile.paymail ?? null,
    identityKey: wallets.wallets[0]?.identityPublicKey || null,
    items: catalog.items.map((item) => ({
      id: item.id,
      name: item.name,
      description: item.description,
      priceMinor: Number(item.priceMinor),
      currency: item.currency,
      satoshis: item.satoshis === undefined ? null : Number(item.satoshis),
      category: item.category ?? null,
      inventory: item.inventory === undefined ? null : Number(item.inventory),
      available: item.available,
      images: [],
      updatedAt: now,
    })),
    sequence: Number((kept?.sequence ?? 0n) + 1n),
    publishedAt: now,
    rateAt: catalog.rateAt ?? null,
  });
  const signed = signFeed(doc, identity.key, now);
  // The instance's proof carries the digest it signed: the feed is hashed once.
  const digest = signed.proof![0]!.digest;
  const record = feedRecord(signed, { id: org.handle, organizationId: org.id, digest, merchantSigned: false });
  const { row } = await saveFeed(context.prisma, record.feed, record.items);
  return toFeedSummary(row);
}

/**
 * Signs an organisation's published feed again after its hours changed (nothing when it has published none).
 * The hours are saved whatever happens here: a feed that cannot be built now (pos unreachable) keeps its
 * last version, which its next publish replaces, and the failure is logged.
 */
export async function republishIfPublished(context: PublishContext, org: Org, profile: ShopProfile | undefined): Promise<void> {
  if (!(await context.prisma.feed.findUnique({ where: { organizationId: org.id }, select: { id: true } }))) return;
  await publishFeed(context, org, profile).catch((error: unknown) =>
    context.logger.warn({ err: error, org: org.handle }, 'the feed was not signed again with the new hours; its next publish will be'),
  );
}
