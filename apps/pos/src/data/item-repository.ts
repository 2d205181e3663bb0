import { AppError } from '@ctk/shared';
import type { Item, PrismaClient } from '../generated/prisma/client.js';

export type { Item };
export type NewItem = Pick<Item, 'organizationId' | 'name' | 'description' | 'priceCents' | 'currency' | 'category' | 'sku' | 'available'>;
/** Where a newest-first listing stands: the last item seen. */
export type ItemPosition = Pick<Item, 'createdAt' | 'id'>;
export type ItemRepository = ReturnType<typeof createItemRepository>;

export function createItemRepository(prisma: PrismaClient) {
  return {
    async create(item: NewItem): Promise<Item> {
      try {
        return await prisma.item.create({ data: item });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError('already_exists', `An item with sku "${item.sku}" already exists in this organisation`, { field: 'sku' });
        }
        throw error;
      }
    },

    /** Newest first, ties broken by id, starting after `after` when given. */
    list(organizationId: string, take: number, after?: ItemPosition): Promise<Item[]> {
      const afterWhere = after && {
        OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
      };
      return prisma.item.findMany({
        where: { organizationId, ...afterWhere },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
      });
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.item.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },
  };
}

// The sku is the items table's only unique key besides the generated id.
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
