import { BigNumber, Curve, ECDSA, PrivateKey, PublicKey, Signature } from '@bsv/sdk';

const HALF_ORDER = new Curve().n.ushrn(1);

/**
 * Signs a feed digest (hex sha256) with ECDSA secp256k1, low-S, and returns the DER as lower-case hex.
 * The digest is the ECDSA message hash itself, so this equals `key.sign(signedBytes)` and a wallet's
 * `createSignature` with `hashToDirectlySign` = the digest's bytes (or `data` = the signed bytes).
 */
export function signDigest(key: PrivateKey, digest: string): string {
  return ECDSA.sign(new BigNumber(digest, 16), key, true).toDER('hex') as string;
}

/**
 * The signature a DER hex string spells, when it spells one exactly: strict DER (nothing to re-encode),
 * low-S (the other S of the same signature is refused, so a signature has one spelling). `null` otherwise.
 */
export function readSignature(derHex: string): Signature | null {
  if (!/^(?:[0-9a-f]{2}){8,72}$/i.test(derHex)) return null;
  try {
    const signature = Signature.fromDER(derHex, 'hex');
    if ((signature.toDER('hex') as string) !== derHex.toLowerCase()) return null;
    if (signature.s.isZero() || signature.r.isZero() || signature.s.cmp(HALF_ORDER) > 0) return null;
    return signature;
  } catch {
    return null;
  }
}

/** Whether `derHex` is a signature of `digest` by the compressed public key `publicKeyHex`; false for anything malformed. */
export function verifyDigest(publicKeyHex: string, digest: string, derHex: string): boolean {
  const signature = readSignature(derHex);
  if (signature === null) return false;
  try {
    return ECDSA.verify(new BigNumber(digest, 16), signature, PublicKey.fromString(publicKeyHex));
  } catch {
    return false;
  }
}

/**
 * The compressed public key (lower-case hex) a key string spells, or null when it is not one: not 33 bytes,
 * not a point on secp256k1, or an x of the field's size or more (which the SDK would quietly reduce to another key).
 */
export function normalPublicKey(hex: string): string | null {
  if (!/^0[23][0-9a-f]{64}$/i.test(hex)) return null;
  try {
    const key = PublicKey.fromString(hex).toString();
    return key === hex.toLowerCase() ? key : null;
  } catch {
    return null;
  }
}
