import { createHash, randomBytes } from 'node:crypto';

/** Prefixes tell the kinds of credential apart at a glance (and in secret scanners). */
export const KEY_PREFIX = {
  user: 'ctk_sk_',
  paygate: 'ctk_pg_',
  commerce: 'ctk_pk_',
} as const;

/** A new random credential: the prefix and 32 random bytes in base64url. */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Keys are stored only as this hash; 256 random bits need no slow hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** What is shown of a key after creation: enough to tell keys apart, never enough to use one. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, 12);
}
