/** What tests of other packages need to speak to federation as a peer instance would: a signed peer list. */
export { signPeerList, type PeerEntry, type SignedPeerList } from './peers/peer-list.js';
export type { InstanceIdentity } from './instance/instance-identity.js';
