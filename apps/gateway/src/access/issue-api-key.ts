import { displayPrefix, hashSecret, KEY_PREFIX, newSecret } from '../auth/secrets.js';
import type { Prisma } from '../generated/prisma/client.js';

/** Creates an API key for a user; the secret is in the result (the contract's IssuedApiKey) and nowhere else, ever. */
export async function issueApiKey(tx: Prisma.TransactionClient, userId: string, name: string) {
  const secret = newSecret(KEY_PREFIX.user);
  const key = await tx.apiKey.create({ data: { userId, name, prefix: displayPrefix(secret), hash: hashSecret(secret) } });
  return { ...key, key: secret };
}
