import { hexToBytes } from '@noble/curves/utils.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);

/** What the organisation's read says of its wallet (`GET /api/v1/organizations/:handle`). */
export type ShopWallet = { identity_public_key?: string | null; receiving_address?: string | null };

/**
 * The addresses this page can tell are the shop's own wallet's: its identity key's (where a ctk-wallet keeps
 * its coins and sends its change, token change included) and its receiving address, written for the network
 * of `sample` (an address the service gave, such as a mint's owner: its version byte says main or test).
 * A holder at one of them is the merchant itself, not a customer.
 */
export function shopWalletAddresses(wallet: ShopWallet, sample: string): Set<string> {
  const addresses = new Set<string>([sample]);
  if (wallet.receiving_address) addresses.add(wallet.receiving_address);
  const identity = wallet.identity_public_key ? addressOfKey(wallet.identity_public_key, sample) : null;
  if (identity) addresses.add(identity);
  return addresses;
}

/**
 * The P2PKH address of a compressed public key, written for the network of `sample` (an address the service
 * gave: its version byte says main or test); null when the key or the sample is not one.
 */
export function addressOfKey(key: string, sample: string): string | null {
  if (!/^0[23][0-9a-fA-F]{64}$/.test(key)) return null;
  try {
    const version = base58check.decode(sample)[0]!;
    return base58check.encode(new Uint8Array([version, ...ripemd160(sha256(hexToBytes(key)))]));
  } catch {
    // A sample that is not base58check: the network is not known.
    return null;
  }
}

/**
 * Whether a typed address is one at all: base58 with its checksum, a version byte and a 20-byte key hash (a
 * P2PKH address of any network). Whether it is of this chain's network, the service says.
 */
export function looksLikeAddress(text: string): boolean {
  if (text.length < 26 || text.length > 35) return false;
  try {
    return base58check.decode(text).length === 21;
  } catch {
    return false;
  }
}
