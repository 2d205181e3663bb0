import { AppError } from '@ctk/shared';
import type { ExchangePeersRequest, ListPeersResponse } from '@ctk/proto/ctk/federation/v1/federation';
import { normalPublicKey } from '../feeds/feed-signature.js';
import { confirmPeer, learnPeers, vouchedPeers, type PeerContext } from './peer-directory.js';
import { peerListVerifies, signPeerList } from './peer-list.js';

/** How far a list's signed_at may be from now: an old list replayed is refused. */
const FRESH_MS = 5 * 60_000;

/** This instance and the peers it vouches for (at most `peersPerExchange`), signed. */
export async function listPeers(context: PeerContext): Promise<ListPeersResponse> {
  const peers = await vouchedPeers(context.prisma, context.limits.peersPerExchange);
  const carried = await context.prisma.feed.groupBy({
    by: ['originUrl'],
    where: { originUrl: { in: peers.map((peer) => peer.url) } },
    _count: true,
  });
  const feedsOf = new Map(carried.map((group) => [group.originUrl, BigInt(group._count)]));
  const list = signPeerList(
    await context.identity(),
    peers.map((peer) => ({ url: peer.url, publicKey: peer.publicKey! })),
    context.now(),
  );
  return {
    self: list.self,
    peers: peers.map((peer) => ({
      url: peer.url,
      publicKey: peer.publicKey!,
      lastSeenAt: peer.lastSeenAt?.toISOString(),
      feeds: feedsOf.get(peer.url) ?? 0n,
    })),
    signedAt: list.signedAt,
    signature: list.signature,
  };
}

/**
 * Another instance introduces itself: its list must be signed by the key it names and fresh; it is then
 * confirmed by asking it at its own URL (a caller cannot speak for another instance's URL), and the peers
 * it names are learned, bounded. The answer is this instance's own signed list.
 */
export async function exchangePeers(context: PeerContext, request: ExchangePeersRequest): Promise<ListPeersResponse> {
  const self = request.self!;
  const list = { self, peers: request.peers, signedAt: request.signedAt, signature: request.signature };
  if (!normalPublicKey(self.publicKey))
    throw new AppError('validation_failed', 'self.public_key must be a compressed secp256k1 public key in hex.', {
      field: 'self.public_key',
    });
  const signedAt = Date.parse(request.signedAt);
  if (!Number.isFinite(signedAt) || Math.abs(context.now().getTime() - signedAt) > FRESH_MS)
    throw new AppError('validation_failed', 'signed_at must be within 5 minutes of now: sign the list when you send it.', {
      field: 'signed_at',
    });
  if (!peerListVerifies(list))
    throw new AppError('validation_failed', 'signature does not verify with self.public_key over this list.', { field: 'signature' });
  const own = await context.identity();
  if (new URL(self.url).origin === own.url) throw new AppError('validation_failed', 'self.url is this instance.', { field: 'self.url' });
  const confirmed = await confirmPeer(context, self.url, 'self.url');
  if (confirmed !== self.publicKey)
    throw new AppError('validation_failed', `The instance at ${self.url} signs with another key than self.public_key.`, {
      field: 'self.public_key',
    });
  await learnPeers(context, request.peers);
  return listPeers(context);
}
