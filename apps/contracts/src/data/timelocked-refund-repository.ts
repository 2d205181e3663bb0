import type { Prisma, PrismaClient, TimelockedRefund } from '../generated/prisma/client.js';

export type { TimelockedRefund };
type Link = 'fundingId' | 'refundId' | 'releaseId' | 'cancelId';

/** Time-locked refunds (decision 0039); their joint transactions are linked by id. */
export function createTimelockedRefundRepository(prisma: PrismaClient) {
  return {
    async insert(row: Prisma.TimelockedRefundUncheckedCreateInput): Promise<TimelockedRefund> {
      return prisma.timelockedRefund.create({ data: row });
    },

    async byId(id: string): Promise<TimelockedRefund | null> {
      return prisma.timelockedRefund.findUnique({ where: { id } });
    },

    async ofOrganization(organizationId: string): Promise<TimelockedRefund[]> {
      return prisma.timelockedRefund.findMany({ where: { organizationId }, orderBy: { createdAt: 'desc' }, take: 200 });
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.timelockedRefund.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },

    /** Those not settled, oldest date first: what the watcher moves on. */
    async open(limit: number): Promise<TimelockedRefund[]> {
      return prisma.timelockedRefund.findMany({ where: { closedAt: null }, orderBy: { refundAfter: 'asc' }, take: limit });
    },

    /** Links a joint transaction unless one is linked already (two asking at once): the row as it is then. */
    async link(id: string, field: Link, jointId: string): Promise<TimelockedRefund> {
      await prisma.timelockedRefund.updateMany({ where: { id, [field]: null }, data: { [field]: jointId } });
      return prisma.timelockedRefund.findUniqueOrThrow({ where: { id } });
    },

    async close(id: string, at: Date): Promise<TimelockedRefund> {
      await prisma.timelockedRefund.updateMany({ where: { id, closedAt: null }, data: { closedAt: at } });
      return prisma.timelockedRefund.findUniqueOrThrow({ where: { id } });
    },
  };
}

export type TimelockedRefundRepository = ReturnType<typeof createTimelockedRefundRepository>;
