import type { DeleteGateResourceRequest, DeleteGateResourceResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import { revokeResourceCredentials } from '../data/gate-payment-repository.js';
import { markResourceRemoved } from '../data/gate-resource-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { accountOf, UUID } from './gate-account.js';

/**
 * Removes a priced resource of the account: its URL is free again, and every credential issued for it is
 * revoked (the published document lists it until the last one would have expired). Another account's id
 * is 404, as an unknown one.
 */
export async function deleteGateResource(prisma: PrismaClient, request: DeleteGateResourceRequest): Promise<DeleteGateResourceResponse> {
  const account = accountOf(request.account);
  const notFound = new AppError('not_found', `No priced resource ${JSON.stringify(request.id.slice(0, 64))} in this account.`);
  if (!UUID.test(request.id)) throw notFound;
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    if (!(await markResourceRemoved(tx, { id: request.id, accountId: account.id }, now))) throw notFound;
    await revokeResourceCredentials(tx, request.id, now);
  });
  return {};
}
