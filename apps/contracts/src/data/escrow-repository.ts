import type { Escrow, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { Escrow };

/** Escrows (decision 0038); their funding and settlements are joint transactions, linked by id. */
export function createEscrowRepository(prisma: PrismaClient) {
  return {
    async insert(row: Prisma.EscrowUncheckedCreateInput): Promise<Escrow> {
      return prisma.escrow.create({ data: row });
    },

    async byId(id: string): Promise<Escrow | null> {
      return prisma.escrow.findUnique({ where: { id } });
    },

    /** The escrow agreed for the organisation's order that pos has not refused, if any. */
    async ofOrder(organizationId: string, orderNumber: string): Promise<Escrow | null> {
      return prisma.escrow.findFirst({ where: { organizationId, orderNumber, orderRefusal: null } });
    },

    async byFunding(jointId: string): Promise<Escrow | null> {
      return prisma.escrow.findUnique({ where: { fundingId: jointId } });
    },

    async ofOrganization(organizationId: string): Promise<Escrow[]> {
      return prisma.escrow.findMany({ where: { organizationId }, orderBy: { createdAt: 'desc' }, take: 200 });
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.escrow.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },

    /** Whether pos took the funded escrow as its order's payment (decision 0038): the first answer stands. */
    async recordOrderPayment(id: string, outcome: { orderPaidAt: Date } | { orderRefusal: string }): Promise<Escrow> {
      await prisma.escrow.updateMany({ where: { id, orderPaidAt: null, orderRefusal: null }, data: outcome });
      return prisma.escrow.findUniqueOrThrow({ where: { id } });
    },

    /**
     * Links a joint transaction as the escrow's funding, release or refund, unless one is linked already (two
     * asking at once): answers the escrow as it is then, and whether this link was the one stored.
     */
    async link(id: string, field: 'fundingId' | 'releaseId' | 'refundId', jointId: string): Promise<{ escrow: Escrow; linked: boolean }> {
      const { count } = await prisma.escrow.updateMany({ where: { id, [field]: null }, data: { [field]: jointId } });
      return { escrow: await prisma.escrow.findUniqueOrThrow({ where: { id } }), linked: count === 1 };
    },
  };
}

export type EscrowRepository = ReturnType<typeof createEscrowRepository>;
