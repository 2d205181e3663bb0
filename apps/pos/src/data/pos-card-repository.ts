import type { CursorPosition } from '@ctk/shared';
import type { PosCard, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { PosCard };
export type PosCardRepository = ReturnType<typeof createPosCardRepository>;

/** POS cards over Prisma: one per (organisation, address), the unique index deciding between concurrent creations. */
export function createPosCardRepository(prisma: PrismaClient) {
  return {
    /**
     * The card of `card.address` at its organisation: inserted when it has none (INSERT ... ON CONFLICT DO
     * NOTHING), else the one it has, unchanged. Of concurrent creations for one address exactly one inserts;
     * the others wait for it to commit and read its card.
     */
    async createOnce(card: Prisma.PosCardUncheckedCreateInput): Promise<{ card: PosCard; created: boolean }> {
      const { count } = await prisma.posCard.createMany({ data: [card], skipDuplicates: true });
      const existing = await prisma.posCard.findUniqueOrThrow({
        where: { organizationId_address: { organizationId: card.organizationId, address: card.address } },
      });
      return { card: existing, created: count === 1 };
    },

    async byId(id: string): Promise<PosCard | null> {
      return prisma.posCard.findUnique({ where: { id } });
    },

    /** The address's card at the organisation, if it has one. */
    async atShop(organizationId: string, address: string): Promise<PosCard | null> {
      return prisma.posCard.findUnique({ where: { organizationId_address: { organizationId, address } } });
    },

    /** The address's cards, at most one per organisation, newest first. */
    async byAddress(address: string, take: number): Promise<PosCard[]> {
      return prisma.posCard.findMany({ where: { address }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
    },

    /** The organisation's cards newest first, ties broken by id, starting after `after` when given. */
    async list(organizationId: string, take: number, after?: CursorPosition): Promise<PosCard[]> {
      const afterWhere = after && { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] };
      return prisma.posCard.findMany({
        where: { organizationId, ...afterWhere },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
      });
    },
  };
}
