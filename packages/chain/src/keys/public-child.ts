import { createHmac } from 'node:crypto';
import { loadSecp256k1 } from '../verify/load-secp256k1.js';

/** A node of an extended public key: its compressed public key (33 bytes) and chain code (32 bytes). */
export type PublicNode = { publicKey: Uint8Array; chainCode: Uint8Array };

/**
 * BIP32's public child derivation (CKDpub) of a normal index (below 2^31) with libsecp256k1: the HMAC-SHA512 of
 * the parent's key and the index, whose left half times G is added to the parent's key. Tens of microseconds,
 * where @bsv/sdk's big-number arithmetic takes about 2 ms (docs/performance.md). Undefined when the native
 * bindings cannot load, or for an index whose left half is not a valid tweak (odds about 2^-127): the caller
 * then derives with the SDK, which decides those as it always has.
 */
export function publicChild(parent: PublicNode, index: number): PublicNode | undefined {
  const secp = loadSecp256k1();
  if (!secp || !Number.isInteger(index) || index < 0 || index >= 0x8000_0000) return undefined;
  const data = Buffer.alloc(37);
  data.set(parent.publicKey);
  data.writeUInt32BE(index, 33);
  const mac = createHmac('sha512', parent.chainCode).update(data).digest();
  try {
    return { publicKey: secp.publicKeyTweakAdd(parent.publicKey, mac.subarray(0, 32), true), chainCode: mac.subarray(32) };
  } catch {
    return undefined;
  }
}
