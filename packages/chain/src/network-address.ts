import { PublicKey, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { addressBytes, type AddressBytes } from './address-bytes.js';
import type { ChainNetwork } from './client/types.js';

const P2PKH_SCRIPT = /^76a914([0-9a-f]{40})88ac$/;
// secp256k1's field prime: an x at or above it is no encoding of a point (the SDK would reduce it to another x).
const FIELD_PRIME = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;

/** The version byte of a P2PKH address on the chain's network (the local chain uses testnet's). */
function prefixOf(network: ChainNetwork): number {
  return network === 'main' ? 0x00 : 0x6f;
}

/** The P2PKH address a locking script (hex) pays, in the chain's network form; undefined for another script. */
export function addressOfScript(script: string, network: ChainNetwork): string | undefined {
  const pkh = P2PKH_SCRIPT.exec(script.toLowerCase())?.[1];
  return pkh ? Utils.toBase58Check(Utils.toArray(pkh, 'hex'), [prefixOf(network)]) : undefined;
}

/** `value` when it is a P2PKH address of the chain's network (checked by its checksum); a 422 naming `field` otherwise. */
export function networkAddress(value: string, network: ChainNetwork, field: string): string {
  networkAddressBytes(value, network, field);
  return value;
}

function networkAddressBytes(value: string, network: ChainNetwork, field: string): AddressBytes {
  const bytes = addressBytes(value);
  if (bytes?.prefix === prefixOf(network)) return bytes;
  const form = network === 'main' ? 'mainnet' : 'testnet';
  throw new AppError(
    'validation_failed',
    `${JSON.stringify(value.slice(0, 80))} is not a P2PKH address of this chain (${network}: ${form} addresses, starting with ${network === 'main' ? '1' : 'm or n'}).`,
    { field },
  );
}

/**
 * The P2PKH address of a compressed secp256k1 public key (hex) in the chain's network form; a 422 naming
 * `field` when it is not one (33 bytes, 02 or 03 first, a point on the curve).
 */
export function addressOfPublicKey(publicKey: string, network: ChainNetwork, field: string): string {
  try {
    if (/^0[23][0-9a-fA-F]{64}$/.test(publicKey) && BigInt(`0x${publicKey.slice(2)}`) < FIELD_PRIME) {
      return PublicKey.fromString(publicKey.toLowerCase()).toAddress([prefixOf(network)]);
    }
  } catch {
    // refused below
  }
  throw new AppError('validation_failed', 'public_key must be a compressed secp256k1 public key: 66 hex digits starting with 02 or 03.', {
    field,
  });
}

/** The P2PKH locking script (hex) of an address of the chain's network; a 422 naming `field` for anything else. */
export function scriptOfAddress(value: string, network: ChainNetwork, field: string): string {
  return `76a914${Buffer.from(networkAddressBytes(value, network, field).hash).toString('hex')}88ac`;
}
