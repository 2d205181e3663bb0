import { HD, type PrivateKey } from '@bsv/sdk';

/** Where the keys of a seed-based wallet sit (BIP32 paths from the seed's master key `m`). */
export const RECEIVE_BRANCH = 'm/0';
/**
 * The identity key is the hardened child m/0'. Not a non-hardened child of the xpub: a non-hardened child's
 * private key and its parent's xpub give the parent's private key, and the identity key's WIF is handed to a
 * merchant's server (PAYGATE_IDENTITY_KEY) while the xpub is registered with the service.
 */
export const IDENTITY_PATH = "m/0'";

export type HdKeys = {
  /** The master's extended public key: the service derives each payment's address as its child m/0/n. */
  xpub: string;
  /** The master's extended private key, for `export` only. */
  xprv: string;
  identityKey: PrivateKey;
  /** The private key of the receive child m/0/n. */
  receiveKey(n: number): PrivateKey;
};

/** The wallet's keys from its BIP32 seed (16 to 64 bytes). */
export function hdKeys(seed: number[]): HdKeys {
  const master = HD.fromSeed(seed);
  const branch = master.derive(RECEIVE_BRANCH);
  return {
    xpub: master.toPublic().toString(),
    xprv: master.toString(),
    identityKey: master.derive(IDENTITY_PATH).privKey,
    receiveKey: (n) => branch.deriveChild(n).privKey,
  };
}

/** The address of child m/0/n of an xpub, as the service derives a payment destination from `wallet_xpub`. */
export function receiveAddress(xpub: string, n: number, prefix: 'mainnet' | 'testnet'): string {
  return HD.fromString(xpub).derive(`${RECEIVE_BRANCH}/${n}`).pubKey.toAddress(prefix);
}
