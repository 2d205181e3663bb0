import type { CursorPosition, SqlQueries } from '@ctk/shared';
import type { PayLink, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { PayLink };
/** A link with its uses now: paid orders, and the open unexpired ones (they hold no use, decision 0024). */
export type PayLinkWithUses = PayLink & { usesPaid: bigint; usesHeld: bigint };
export type PayLinkRepository = ReturnType<typeof createPayLinkRepository>;

type Db = PrismaClient | Prisma.TransactionClient;

/** Pay links over Prisma; their uses are counted from the orders opened from them. */
export function createPayLinkRepository(prisma: PrismaClient) {
  return {
    async create(link: Prisma.PayLinkUncheckedCreateInput): Promise<PayLinkWithUses> {
      return { ...(await prisma.payLink.create({ data: link })), usesPaid: 0n, usesHeld: 0n };
    },

    async byId(id: string, now: Date): Promise<PayLinkWithUses | null> {
      const link = await prisma.payLink.findUnique({ where: { id } });
      return link && { ...link, ...(await usesOf(prisma, id, now)) };
    },

    /** Newest first, ties broken by id, starting after `after` when given. */
    async list(organizationId: string, take: number, now: Date, after?: CursorPosition): Promise<PayLinkWithUses[]> {
      const afterWhere = after && { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] };
      const links = await prisma.payLink.findMany({
        where: { organizationId, ...afterWhere },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
      });
      return Promise.all(links.map(async (link) => ({ ...link, ...(await usesOf(prisma, link.id, now)) })));
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.payLink.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },

    /** Sets `disabledAt` once; a link already disabled keeps its first time. */
    async disable(id: string, at: Date): Promise<void> {
      await prisma.payLink.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: at } });
    },

    /** The unpaid orders (open, unexpired) of the link a client address holds, and when the first of them expires. */
    async heldByClient(
      id: string,
      clientAddress: string,
      now: Date,
      db: Db = prisma,
    ): Promise<{ count: number; firstExpiry: Date | null }> {
      const held = await db.order.aggregate({
        where: { payLinkId: id, clientAddress, status: 'open', expiresAt: { gt: now } },
        _count: { _all: true },
        _min: { expiresAt: true },
      });
      return { count: held._count._all, firstExpiry: held._min.expiresAt };
    },

    /**
     * Inside an order's insert transaction: locks the link's row (SELECT ... FOR UPDATE), so that openings
     * of one link count its uses and insert their order one after another, and answers it as it now is.
     */
    async lockedForOpening(tx: Prisma.TransactionClient, id: string, now: Date): Promise<PayLinkWithUses | null> {
      await tx.$queryRaw`SELECT id FROM pay_links WHERE id = ${id}::uuid FOR UPDATE`;
      const link = await tx.payLink.findUnique({ where: { id } });
      return link && { ...link, ...(await usesOf(tx, id, now)) };
    },
  };
}

/** Paid orders use the link; open orders not yet expired are counted as held, but hold no use (decision 0024). */
async function usesOf(db: Db, payLinkId: string, now: Date): Promise<{ usesPaid: bigint; usesHeld: bigint }> {
  // One after the other: inside a transaction the two queries share one connection.
  const paid = await db.order.count({ where: { payLinkId, status: { in: ['paid', 'confirmed'] } } });
  const held = await db.order.count({ where: { payLinkId, status: 'open', expiresAt: { gt: now } } });
  return { usesPaid: BigInt(paid), usesHeld: BigInt(held) };
}

/**
 * The use limit of the link (with its row locked by the paying order's transaction) and the uses its orders other
 * than `orderId` have taken (paid), in one statement; null when the link has no limit, or is gone.
 */
export async function payLinkUses(tx: SqlQueries, id: string, orderId: string): Promise<{ max: bigint; paid: bigint } | null> {
  const [uses] = await tx.rows<{ max: bigint; paid: bigint }>(LINK_USES, [id, orderId]);
  return uses && uses.max > 0n ? uses : null;
}

const LINK_USES = `SELECT l.max_uses AS max, (SELECT count(*) FROM orders o
    WHERE o.pay_link_id = l.id AND o.id <> $2::uuid AND o.status IN ('paid', 'confirmed')) AS paid
  FROM pay_links l WHERE l.id = $1::uuid`;
