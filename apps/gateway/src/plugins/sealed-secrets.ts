import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { AppError } from '@ctk/shared';
import type { SecretKind } from '../routes/route-definition.js';

/** A secret taken out of a stored answer: where it was, what kind of key it is, and the key. */
export type SealedSecret = { path: readonly string[]; kind: SecretKind; value: string };

const VERSION = 'v1';

/**
 * Seals an answer's secrets with AES-256-GCM under a key derived (HKDF-SHA256) from the client's
 * Idempotency-Key and the caller's scope. The database holds only the key's hash, so what it stores
 * cannot be opened without the Idempotency-Key the client keeps.
 */
export function sealSecrets(secrets: SealedSecret[], idempotencyKey: string, scope: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(idempotencyKey, scope), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function openSecrets(sealed: string, idempotencyKey: string, scope: string): SealedSecret[] {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new AppError('internal', 'Unreadable sealed secrets');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(idempotencyKey, scope), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as SealedSecret[];
}

function keyFor(idempotencyKey: string, scope: string): Buffer {
  return Buffer.from(hkdfSync('sha256', idempotencyKey, `ctk idempotency ${scope}`, 'replayed secrets', 32));
}
