import type { PublicKey } from '@bsv/sdk';
import { AppError } from '@ctk/shared';

/** Multicodec prefix of a secp256k1 public key (0xe7, as an unsigned varint). */
export const SECP256K1_PUB = [0xe7, 0x01];

/**
 * The public key inside a secp256k1 did:key, or a 422 naming what is wrong with it. The SDK is loaded at the first
 * sign-in, not at start: it is a quarter of the gateway's modules, and nothing else of the gateway uses it.
 */
export async function publicKeyFromDidKey(did: string): Promise<PublicKey> {
  const { PublicKey, Utils } = await import('@bsv/sdk');
  const invalid = (why: string) => new AppError('validation_failed', `Invalid did: ${why}.`, { field: 'did' });
  if (!did.startsWith('did:key:z')) throw invalid('expected "did:key:z..." (base58btc multibase)');
  let bytes: number[];
  try {
    bytes = Utils.fromBase58(did.slice('did:key:z'.length));
  } catch {
    throw invalid('not base58btc');
  }
  if (bytes[0] !== SECP256K1_PUB[0] || bytes[1] !== SECP256K1_PUB[1]) throw invalid('only secp256k1 keys (did:key:zQ3s...) are supported');
  if (bytes.length !== 35) throw invalid('expected a 33-byte compressed public key');
  try {
    return PublicKey.fromDER(bytes.slice(2));
  } catch {
    throw invalid('the key is not a point on secp256k1');
  }
}
