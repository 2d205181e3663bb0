import { displayPrefix, hashSecret, KEY_PREFIX, newSecret } from '../auth/secrets.js';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * Creates an API key for a user, working until it is revoked or, given, until `expiresAt` (a sign-in's);
 * the secret is in the result (the contract's IssuedApiKey) and nowhere else, ever.
 */
export async function issueApiKey(tx: Prisma.TransactionClient, userId: string, name: string, expiresAt?: Date) {
  const secret = newSecret(KEY_PREFIX.user);
  const key = await tx.apiKey.create({
    data: { userId, name, prefix: displayPrefix(secret), hash: hashSecret(secret), expiresAt: expiresAt ?? null },
  });
  return { ...key, key: secret };
}
