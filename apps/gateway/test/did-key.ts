import { Utils, type PublicKey } from '@bsv/sdk';
import { SECP256K1_PUB } from '../src/auth/did-key.js';

/** `did:key:zQ3s...` for a secp256k1 public key (its 33-byte compressed form, base58btc multibase), as a wallet signs in with. */
export function didKeyFromPublicKey(publicKey: PublicKey): string {
  return `did:key:z${Utils.toBase58([...SECP256K1_PUB, ...(publicKey.toDER() as number[])])}`;
}
