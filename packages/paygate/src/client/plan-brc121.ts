import { randomBytes } from 'node:crypto';
import { KeyDeriver, P2PKH, PrivateKey, PublicKey, type WalletProtocol } from '@bsv/sdk';

const BRC29: WalletProtocol = [2, '3241645161d8'];

/** BRC-121's remittance headers besides the transaction: the nonce (a BRC-29 derivation prefix), the time, the payer's key. */
export type Brc121Remittance = { nonce: string; time: string; sender?: string };

/**
 * Which output pays a BRC-121 offer. Without the payer's identity key, P2PKH of `x-bsv-server` itself, as
 * the contract's gate takes it (its `x-bsv-server` is a fresh key of its own). With it, as `@bsv/402-pay`
 * pays: the BRC-42 child of `x-bsv-server` for the payer's key and the key id `<nonce> <base64 of the time>`
 * (BRC-29), which the server derives back with its private key.
 */
export function planBrc121(
  serverKey: string,
  identityKey: PrivateKey | undefined,
): { lockingScript: string; remittance: Brc121Remittance } {
  const nonce = randomBytes(8).toString('base64');
  const time = String(Date.now());
  if (!identityKey) return { lockingScript: p2pkh(PublicKey.fromString(serverKey)), remittance: { nonce, time } };
  const keyId = `${nonce} ${Buffer.from(time, 'utf8').toString('base64')}`;
  const paid = new KeyDeriver(identityKey).derivePublicKey(BRC29, keyId, serverKey, false);
  return { lockingScript: p2pkh(paid), remittance: { nonce, time, sender: identityKey.toPublicKey().toString() } };
}

/** A private key given as WIF, 64 hex digits, or a PrivateKey. */
export function privateKeyOf(key: string | PrivateKey): PrivateKey {
  if (typeof key !== 'string') return key;
  return /^[0-9a-fA-F]{64}$/.test(key) ? PrivateKey.fromHex(key) : PrivateKey.fromWif(key);
}

function p2pkh(key: PublicKey): string {
  return new P2PKH().lock(key.toHash() as number[]).toHex();
}
