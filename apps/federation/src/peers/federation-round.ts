import { AppError, type Logger } from '@ctk/shared';
import { z } from 'zod';
import type { CarryContext } from '../publishing/carry-feed.js';
import { carryFeed } from '../publishing/carry-feed.js';
import { failureOf } from './peer-client.js';
import { isFeedProblem } from './peer-errors.js';
import { confirmPeer, learnPeers, peerOrigin, readPeerList, type PeerContext } from './peer-directory.js';
import { listPeers } from './exchange-peers.js';

export type RoundContext = {
  peers: PeerContext;
  carry: CarryContext;
  seeds: readonly string[];
  feedsPerPull: number;
  maxFeedBytes: number;
  logger: Logger;
};

/** The most peers visited in one round; the others wait for the next. */
const PEERS_PER_ROUND = 20;
const DAY_MS = 86_400_000;
/**
 * How long a round holds the peers it claimed. Its visit sets their next pull when it ends; if its replica
 * dies first, another replica's round takes them once this has passed.
 */
const CLAIM_MS = 10 * 60_000;

const feedPage = z.object({
  data: z.array(z.object({ handle: z.string().max(40), digest: z.string().max(64), merchant_signed: z.boolean() }).passthrough()).max(100),
  next_cursor: z.string().max(200).nullable(),
});

/**
 * One round of federation: every peer that is due (seeds first seen now) is claimed for this round, confirmed,
 * told of this instance and its peers, and its own feeds pulled where they changed. A peer that fails is tried
 * again later and later (doubling, up to a day); what was pulled from it before is kept.
 */
export async function federationRound(context: RoundContext): Promise<void> {
  const { prisma, now, identity } = context.peers;
  const own = (await identity()).url;
  const seeds = context.seeds.flatMap((url) => peerOrigin(url) ?? []).filter((url) => url !== own);
  if (seeds.length) await prisma.peer.createMany({ data: seeds.map((url) => ({ url, source: 'seed' })), skipDuplicates: true });
  for (const peer of await claimDuePeers(prisma, now())) {
    try {
      await visitPeer(context, peer.url);
      await prisma.peer.update({
        where: { url: peer.url },
        data: { lastSeenAt: now(), failures: 0, lastError: null, nextPullAt: new Date(now().getTime() + context.peers.limits.intervalMs) },
      });
    } catch (error) {
      const failures = peer.failures + 1;
      const wait = Math.min(context.peers.limits.intervalMs * 2 ** failures, DAY_MS);
      context.logger.warn({ peer: peer.url, failures, err: failureOf(error) }, 'a peer could not be reached; its feeds are kept');
      await prisma.peer.update({
        where: { url: peer.url },
        data: { failures, lastError: failureOf(error), nextPullAt: new Date(now().getTime() + wait) },
      });
    }
  }
}

/**
 * The peers due at `at`, oldest first, up to PEERS_PER_ROUND, claimed: their next pull moved CLAIM_MS ahead in
 * the statement that picks them, which skips rows another replica's round is claiming at that moment. So
 * replicas running rounds at once never visit one peer together, nor overwrite each other's outcome of it.
 */
async function claimDuePeers(prisma: PeerContext['prisma'], at: Date): Promise<Array<{ url: string; failures: number }>> {
  return prisma.$queryRaw<Array<{ url: string; failures: number }>>`
    UPDATE peers SET next_pull_at = ${new Date(at.getTime() + CLAIM_MS)}
    WHERE url IN (
      SELECT url FROM peers WHERE next_pull_at <= ${at} ORDER BY next_pull_at LIMIT ${PEERS_PER_ROUND} FOR UPDATE SKIP LOCKED
    )
    RETURNING url, failures`;
}

async function visitPeer(context: RoundContext, url: string): Promise<void> {
  const { peers } = context;
  const key = await confirmPeer(peers, url);
  const ours = await listPeers(peers);
  const answer = readPeerList(
    await peers.client.postJson(`${url}/api/v1/peers/exchange`, {
      self: { url: ours.self!.url, public_key: ours.self!.publicKey },
      peers: ours.peers.map((peer) => ({ url: peer.url, public_key: peer.publicKey })),
      signed_at: ours.signedAt,
      signature: ours.signature,
    }),
    'exchange answer',
  );
  if (answer.self.publicKey === key) await learnPeers(peers, answer.peers);
  await pullFeeds(context, url, key);
}

/**
 * The peer's own feeds, a page at a time, each fetched whole only where its digest differs from the one kept.
 * A feed refused (its signature, its size, an older sequence) is logged and skipped: the peer's other feeds
 * are still pulled. Once this instance carries as many of the peer's feeds as it takes (FEDERATION_FEEDS_PER_PEER),
 * only those it carries are pulled again. A failure of the peer itself (unreachable, too slow) ends its visit.
 */
async function pullFeeds(context: RoundContext, url: string, key: string): Promise<void> {
  const host = new URL(url).host;
  let cursor: string | null = null;
  let pulled = 0;
  let carried = await context.carry.prisma.feed.count({ where: { originUrl: url } });
  do {
    const query: string = `origin=self&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = feedPage.safeParse(await context.peers.client.getJson(`${url}/api/v1/feeds?${query}`));
    if (!page.success) throw new AppError('unavailable', `${url} answered its feed list in a shape this instance does not read.`);
    const kept = await context.carry.prisma.feed.findMany({
      where: { id: { in: page.data.data.map((summary) => `${summary.handle}@${host}`) } },
      select: { id: true, digest: true, merchantSigned: true },
    });
    const keptRows = new Map(kept.map((row) => [row.id, row]));
    for (const summary of page.data.data) {
      if (pulled >= context.feedsPerPull) return;
      // The same version is fetched again only when its merchant has signed it since.
      const held = keptRows.get(`${summary.handle}@${host}`);
      if (held?.digest === summary.digest && (held.merchantSigned || !summary.merchant_signed)) continue;
      if (!held && carried >= context.carry.feedsPerPeer) continue;
      try {
        const fetched = (await context.peers.client.getJson(`${url}/api/v1/feeds/${encodeURIComponent(summary.handle)}`, {
          maxBytes: context.maxFeedBytes,
        })) as {
          document?: unknown;
        };
        await carryFeed(context.carry, fetched.document, key);
        pulled++;
        if (!held) carried++;
      } catch (error) {
        if (!isFeedProblem(error)) throw error;
        context.logger.warn(
          { peer: url, feed: summary.handle, err: failureOf(error) },
          "a peer's feed was not carried; its other feeds are",
        );
      }
    }
    cursor = page.data.next_cursor;
  } while (cursor);
}

/** Runs rounds every `tickMs` until stopped; a round never overlaps the one before. */
export function startFederationRounds(context: RoundContext, tickMs: number): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= federationRound(context)
      .catch((error: unknown) => context.logger.error({ err: error }, 'a federation round failed'))
      .finally(() => (running = undefined));
  }, tickMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
