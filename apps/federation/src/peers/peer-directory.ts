import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import { normalPublicKey } from '../feeds/feed-signature.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { InstanceIdentity } from '../instance/instance-identity.js';
import { failureOf, type PeerClient } from './peer-client.js';
import { peerListVerifies, type PeerEntry, type SignedPeerList } from './peer-list.js';
import { peerUrlProblem } from './peer-url.js';

export type PeerContext = {
  prisma: PrismaClient;
  client: PeerClient;
  identity: () => Promise<InstanceIdentity>;
  limits: { maxPeers: number; peersPerExchange: number; intervalMs: number };
  now: () => Date;
};

const entry = z.object({ url: z.string().max(2048), public_key: z.string().max(66) });
/** A peer list as the API spells it (GET /api/v1/peers, and both sides of an exchange). */
export const peerListJson = z.object({
  self: entry,
  peers: z.array(entry.passthrough()).max(10_000),
  signed_at: z.string().max(40),
  signature: z.string().max(200),
});

/** A list read from JSON, as signed (the peers' other members, such as last_seen_at, are not signed). */
export function readPeerList(json: unknown, where: string): SignedPeerList {
  const list = validate(peerListJson.passthrough(), json, where);
  const toEntry = (peer: { url: string; public_key: string }) => ({ url: peer.url, publicKey: peer.public_key });
  return { self: toEntry(list.self), peers: list.peers.map(toEntry), signedAt: list.signed_at, signature: list.signature };
}

/** The origin of a peer URL (scheme, host and port: what a peer is known by), or null when it cannot be a peer. */
export function peerOrigin(url: string): string | null {
  if (peerUrlProblem(url) !== null) return null;
  return new URL(url).origin;
}

/**
 * The key of the instance at `url`, as it vouches for itself: its GET /api/v1/peers, signed by the key it
 * names, for the origin it was asked at. A peer confirmed within the pull interval is not asked again. The
 * peers it lists are learned (unconfirmed until each is asked in turn).
 */
export async function confirmPeer(context: PeerContext, url: string, field = 'url'): Promise<string> {
  const origin = peerOrigin(url);
  if (!origin) throw new AppError('validation_failed', `${url} cannot be a peer: ${peerUrlProblem(url)}`, { field });
  const known = await context.prisma.peer.findUnique({ where: { url: origin } });
  const fresh = known?.lastSeenAt && context.now().getTime() - known.lastSeenAt.getTime() < context.limits.intervalMs;
  if (known?.verified && known.publicKey && fresh) return known.publicKey;
  if (!known && (await context.prisma.peer.count()) >= context.limits.maxPeers)
    throw new AppError(
      'rate_limited',
      `This instance keeps at most ${context.limits.maxPeers} peers and knows as many: ${origin} is not taken on.`,
      {
        field,
      },
    );
  try {
    const list = readPeerList(await context.client.getJson(`${origin}/api/v1/peers`, { field }), 'peer list');
    if (new URL(list.self.url).origin !== origin)
      throw new AppError('validation_failed', `${origin} names itself ${list.self.url}: a peer answers for its own URL only.`, { field });
    if (!normalPublicKey(list.self.publicKey) || !peerListVerifies(list))
      throw new AppError('validation_failed', `${origin}'s peer list is not signed by the key it names.`, { field });
    await context.prisma.peer.upsert({
      where: { url: origin },
      create: { url: origin, publicKey: list.self.publicKey, verified: true, source: 'learned', lastSeenAt: context.now() },
      update: { publicKey: list.self.publicKey, verified: true, lastSeenAt: context.now(), failures: 0, lastError: null },
    });
    await learnPeers(context, list.peers);
    return list.self.publicKey;
  } catch (error) {
    if (known) await context.prisma.peer.update({ where: { url: origin }, data: { lastError: failureOf(error) } });
    throw error;
  }
}

/** Peers named by another instance, kept unconfirmed: at most `peersPerExchange` of a list, and `maxPeers` in all. */
export async function learnPeers(context: PeerContext, peers: PeerEntry[]): Promise<void> {
  const own = (await context.identity()).url;
  const origins = [...new Set(peers.slice(0, context.limits.peersPerExchange).flatMap((peer) => peerOrigin(peer.url) ?? []))].filter(
    (origin) => origin !== own,
  );
  if (origins.length === 0) return;
  const room = context.limits.maxPeers - (await context.prisma.peer.count());
  if (room <= 0) return;
  await context.prisma.peer.createMany({
    data: origins.slice(0, room).map((url) => ({ url, source: 'learned' })),
    skipDuplicates: true,
  });
}

/** The peers this instance vouches for (confirmed), most recently reached first. */
export async function vouchedPeers(prisma: PrismaClient, limit: number) {
  return prisma.peer.findMany({
    where: { verified: true, publicKey: { not: null } },
    orderBy: [{ lastSeenAt: 'desc' }, { url: 'asc' }],
    take: limit,
  });
}
