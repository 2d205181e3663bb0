import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A provider's webhook secret sealed with AES-256-GCM under commerce's secrets key, bound to its
 * organisation and provider (associated data), so a sealed secret copied to another row does not open.
 * Layout: 12-byte nonce, 16-byte tag, ciphertext.
 */
export function sealSecret(key: Buffer, owner: string, secret: string): Uint8Array<ArrayBuffer> {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(owner));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Uint8Array.from(Buffer.concat([nonce, cipher.getAuthTag(), sealed]));
}

/** The secret, or undefined when it cannot be opened (another key, another row's). */
export function openSecret(key: Buffer, owner: string, sealed: Uint8Array): string | undefined {
  try {
    const bytes = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12)).setAAD(Buffer.from(owner));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export const secretOwner = (organizationId: string, provider: string) => `${organizationId}/${provider}`;
