import type { JointSignature, JointTransaction, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { JointSignature, JointTransaction };
export type JointWithSignatures = JointTransaction & { signatures: JointSignature[] };

const withSignatures = { signatures: { orderBy: [{ inputIndex: 'asc' as const }, { createdAt: 'asc' as const }] } };

/** Transactions partners sign together and the signatures each input has (decision 0037). */
export function createJointRepository(prisma: PrismaClient) {
  return {
    async insert(row: Prisma.JointTransactionUncheckedCreateInput): Promise<JointWithSignatures> {
      return prisma.jointTransaction.create({ data: row, include: withSignatures });
    },

    async byId(id: string): Promise<JointWithSignatures | null> {
      return prisma.jointTransaction.findUnique({ where: { id }, include: withSignatures });
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.jointTransaction.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },

    /** The shop's newest 200. */
    async ofOrganization(organizationId: string): Promise<JointWithSignatures[]> {
      return prisma.jointTransaction.findMany({
        where: { organizationId },
        orderBy: { createdAt: 'desc' },
        take: 200,
        include: withSignatures,
      });
    },

    /**
     * Adds signatures under the joint transaction's row lock and lets `complete` decide, in the same transaction,
     * what the whole becomes: two partners signing at once see each other's signatures, and one completes it.
     */
    async addSignatures(
      id: string,
      signatures: Omit<JointSignature, 'jointId'>[],
      complete: (joint: JointWithSignatures) => Prisma.JointTransactionUpdateInput | undefined,
    ): Promise<JointWithSignatures> {
      return prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM joint_transactions WHERE id = ${id} FOR UPDATE`;
        await tx.jointSignature.createMany({ data: signatures.map((row) => ({ ...row, jointId: id })), skipDuplicates: true });
        const joint = (await tx.jointTransaction.findUniqueOrThrow({ where: { id }, include: withSignatures })) as JointWithSignatures;
        const changes = joint.status === 'collecting' ? complete(joint) : undefined;
        if (!changes) return joint;
        return tx.jointTransaction.update({ where: { id }, data: changes, include: withSignatures });
      });
    },

    /**
     * Marks a signed joint transaction broadcast, once: `then` runs in the same transaction for the caller that
     * made the change (an escrow's release posts its sale there), and answers whether it wrote events.
     */
    async markBroadcast(
      id: string,
      at: Date,
      then: (tx: Prisma.TransactionClient, joint: JointWithSignatures) => Promise<boolean>,
    ): Promise<{ joint: JointWithSignatures; emitted: boolean }> {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.jointTransaction.updateMany({
          where: { id, status: 'signed' },
          data: { status: 'broadcast', broadcastAt: at },
        });
        const joint = (await tx.jointTransaction.findUniqueOrThrow({ where: { id }, include: withSignatures })) as JointWithSignatures;
        return { joint, emitted: count === 1 && (await then(tx, joint)) };
      });
    },
  };
}

export type JointRepository = ReturnType<typeof createJointRepository>;
