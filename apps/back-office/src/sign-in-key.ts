import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/curves/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, createBase58check } from '@scure/base';

/**
 * The key a merchant signs in with (the spec's key-based sign-in): a secp256k1 key made and kept in this
 * browser, named by its did:key. It signs a challenge as the gateway checks it (ECDSA over SHA-256 of the
 * message's UTF-8 bytes, DER, hex); its backup is a WIF, the format `pnpm wallet export` uses, so a
 * wallet's identity key signs in too.
 */
export type SignInKey = { secretKey: Uint8Array; did: string };

/** Multicodec prefix of a secp256k1 public key in a did:key. */
const SECP256K1_PUB = [0xe7, 0x01];
/** WIF version bytes: mainnet (what a backup is written with) and testnet (also read). */
const WIF_MAIN = 0x80;
const WIF_TEST = 0xef;
const base58check = createBase58check(sha256);

export function newSignInKey(): SignInKey {
  return keyOf(secp256k1.utils.randomSecretKey());
}

export function keyOf(secretKey: Uint8Array): SignInKey {
  const publicKey = secp256k1.getPublicKey(secretKey, true);
  return { secretKey, did: `did:key:z${base58.encode(new Uint8Array([...SECP256K1_PUB, ...publicKey]))}` };
}

/** The signature the gateway checks over a challenge's message. */
export function signChallenge(key: SignInKey, message: string): string {
  return bytesToHex(secp256k1.sign(new TextEncoder().encode(message), key.secretKey, { format: 'der' }));
}

/** The key as a WIF (compressed), for its backup. */
export function toWif(key: SignInKey): string {
  return base58check.encode(new Uint8Array([WIF_MAIN, ...key.secretKey, 0x01]));
}

/** A key from its WIF backup, or null when the text is not one. */
export function fromWif(text: string): SignInKey | null {
  try {
    const bytes = base58check.decode(text.trim());
    const compressed = bytes.length === 34 && bytes[33] === 0x01;
    if ((bytes[0] !== WIF_MAIN && bytes[0] !== WIF_TEST) || !(compressed || bytes.length === 33)) return null;
    const secretKey = bytes.slice(1, 33);
    return secp256k1.utils.isValidSecretKey(secretKey) ? keyOf(secretKey) : null;
  } catch {
    return null;
  }
}
