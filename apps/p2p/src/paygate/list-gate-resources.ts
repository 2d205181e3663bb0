import type { ListGateResourcesRequest, ListGateResourcesResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { cursorPosition, pageLimit, takePage, validate } from '@ctk/shared';
import { pageLiveResources } from '../data/gate-resource-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { accountOf } from './gate-account.js';
import { gateResourceMessage } from './gate-messages.js';

const limitSchema = pageLimit(50, 200);

/** The account's live priced resources, newest first. */
export async function listGateResources(prisma: PrismaClient, request: ListGateResourcesRequest): Promise<ListGateResourcesResponse> {
  const account = accountOf(request.account);
  const limit = validate(limitSchema, request.limit, 'limit');
  const after = cursorPosition(request.cursor);
  const rows = await pageLiveResources(prisma, account.id, limit + 1, after);
  const { page, nextCursor } = takePage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
  return { resources: page.map(gateResourceMessage), nextCursor };
}
