import { AppError } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { issueApiKey } from './issue-api-key.js';
import { newestFirst, toPage, type PageQuery } from '../routes/pagination.js';

/** A user's own API keys: create (secret shown once), list (never the secret), revoke. */
export function createApiKey(deps: GatewayDeps, userId: string, name: string) {
  return deps.prisma.$transaction((tx) => issueApiKey(tx, userId, name));
}

/** The keys' rows: the contract's ApiKey shows none of their hashes. */
export async function listApiKeys(deps: GatewayDeps, userId: string, page: PageQuery) {
  return toPage(await deps.prisma.apiKey.findMany(newestFirst(page, { userId })), page.limit, (key) => key);
}

export async function revokeApiKey(deps: GatewayDeps, userId: string, keyId: string) {
  const revoked = await deps.prisma.apiKey.updateMany({
    where: { id: keyId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (revoked.count === 0) throw new AppError('not_found', 'No active API key of yours with this id.');
  deps.credentials.forget();
  return { id: keyId, revoked: true };
}
