import type { CursorPosition } from '@ctk/shared';
import type { GateResource, Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** The account's live (not removed) priced resources. */
export async function findLiveResources(db: Db, accountId: string): Promise<GateResource[]> {
  return db.gateResource.findMany({ where: { accountId, deletedAt: null } });
}

/** The method and path of each of the account's live priced resources. */
export async function findLiveResourcePaths(db: Db, accountId: string): Promise<Array<{ method: string; path: string }>> {
  return db.gateResource.findMany({
    where: { accountId, deletedAt: null },
    select: { method: true, path: true },
  });
}

/** Stores a new priced resource and answers it as stored. */
export async function addGateResource(db: Db, data: Prisma.GateResourceUncheckedCreateInput): Promise<GateResource> {
  return db.gateResource.create({ data });
}

/** The priced resource with this id, removed or not; null when there is none. */
export async function findGateResource(db: Db, id: string): Promise<GateResource | null> {
  return db.gateResource.findUnique({ where: { id } });
}

/** Marks the account's live resource removed at `now`; false when it has no such live resource. */
export async function markResourceRemoved(db: Db, resource: { id: string; accountId: string }, now: Date): Promise<boolean> {
  const removed = await db.gateResource.updateMany({
    where: { id: resource.id, accountId: resource.accountId, deletedAt: null },
    data: { deletedAt: now },
  });
  return removed.count > 0;
}

/** Up to `take` of the account's live resources, newest first, after `after` when given. */
export async function pageLiveResources(db: Db, accountId: string, take: number, after?: CursorPosition): Promise<GateResource[]> {
  return db.gateResource.findMany({
    where: {
      accountId,
      deletedAt: null,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

/** Whether the organisation has any live priced resource. */
export async function hasLiveResource(db: Db, organizationId: string): Promise<boolean> {
  return (await db.gateResource.count({ where: { organizationId, deletedAt: null } })) > 0;
}
