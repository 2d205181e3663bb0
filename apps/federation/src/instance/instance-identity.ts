import { PrivateKey } from '@bsv/sdk';
import { keptKey, type KeyTable } from '@ctk/shared';

/** This instance as its peers know it: where its API answers, and the key it signs with. */
export type InstanceIdentity = { url: string; key: PrivateKey; publicKey: string };

/**
 * This instance's identity: its public URL (no trailing slash) and its secp256k1 key, configured or made
 * on first use and kept in federation's database (every replica signs with the same one). Read once.
 */
export function instanceIdentity(table: KeyTable, publicUrl: string, configured: string | undefined): () => Promise<InstanceIdentity> {
  const secret = keptKey(table, 'instance', configured);
  const url = new URL(publicUrl).origin;
  let identity: Promise<InstanceIdentity> | undefined;
  return () => {
    identity ??= secret().then(
      (bytes) => {
        const key = new PrivateKey(bytes.toString('hex'), 16);
        return { url, key, publicKey: key.toPublicKey().toString() };
      },
      (error: unknown) => {
        identity = undefined; // a failed read is tried again on the next call, as keptKey's
        throw error;
      },
    );
    return identity;
  };
}
