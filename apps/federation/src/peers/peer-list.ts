import { Hash, Utils } from '@bsv/sdk';
import canonicalize from 'canonicalize';
import { signDigest, verifyDigest } from '../feeds/feed-signature.js';
import type { InstanceIdentity } from '../instance/instance-identity.js';

/** An instance as a peer list names it. */
export type PeerEntry = { url: string; publicKey: string };
/** A peer list as it travels: who signs it, whom it names, when, and the signer's signature. */
export type SignedPeerList = { self: PeerEntry; peers: PeerEntry[]; signedAt: string; signature: string };

/** The bytes a peer list's signature is over: the RFC 8785 canonical JSON of the list as the API spells it. */
function listDigest(list: Omit<SignedPeerList, 'signature'>): string {
  const entry = (peer: PeerEntry) => ({ url: peer.url, public_key: peer.publicKey });
  const json = canonicalize({ self: entry(list.self), peers: list.peers.map(entry), signed_at: list.signedAt }) ?? '';
  return Utils.toHex(Hash.sha256(Utils.toArray(json, 'utf8')));
}

/** This instance's list of the peers it vouches for, signed with its key. */
export function signPeerList(identity: InstanceIdentity, peers: PeerEntry[], now: Date): SignedPeerList {
  const list = { self: { url: identity.url, publicKey: identity.publicKey }, peers, signedAt: now.toISOString() };
  return { ...list, signature: signDigest(identity.key, listDigest(list)) };
}

/** Whether a list is signed by the key it names as its own. */
export function peerListVerifies(list: SignedPeerList): boolean {
  return verifyDigest(list.self.publicKey, listDigest(list), list.signature);
}
