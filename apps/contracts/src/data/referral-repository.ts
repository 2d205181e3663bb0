import type { Prisma, PrismaClient, ReferralCheckout, ReferralLink } from '../generated/prisma/client.js';

export type { ReferralCheckout, ReferralLink };
export type LinkSales = { sales: bigint; commissionPaidSatoshis: bigint };

/** Referral links and the checkouts through them (decision 0040). */
export function createReferralRepository(prisma: PrismaClient) {
  return {
    async insertLink(row: Prisma.ReferralLinkUncheckedCreateInput): Promise<ReferralLink> {
      return prisma.referralLink.create({ data: row });
    },

    async linkById(id: string): Promise<ReferralLink | null> {
      return prisma.referralLink.findUnique({ where: { id } });
    },

    /** Disables the organisation's link (the first time only); null when it has no such link. */
    async disableLink(organizationId: string, id: string, at: Date): Promise<ReferralLink | null> {
      await prisma.referralLink.updateMany({ where: { id, organizationId, disabledAt: null }, data: { disabledAt: at } });
      return prisma.referralLink.findFirst({ where: { id, organizationId } });
    },

    async linksOf(organizationId: string): Promise<ReferralLink[]> {
      return prisma.referralLink.findMany({ where: { organizationId }, orderBy: { createdAt: 'desc' }, take: 200 });
    },

    async hasAny(organizationId: string): Promise<boolean> {
      return (await prisma.referralLink.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
    },

    /** What each link sold: its paid checkouts, and the commission they paid its referrer. */
    async salesOf(linkIds: readonly string[]): Promise<Map<string, LinkSales>> {
      const rows = await prisma.referralCheckout.groupBy({
        by: ['referralLinkId'],
        where: { referralLinkId: { in: [...linkIds] }, paidAt: { not: null } },
        _count: { _all: true },
        _sum: { commissionSatoshis: true },
      });
      return new Map(
        rows.map((row) => [
          row.referralLinkId,
          { sales: BigInt(row._count._all), commissionPaidSatoshis: row._sum.commissionSatoshis ?? 0n },
        ]),
      );
    },

    async insertCheckout(row: Prisma.ReferralCheckoutUncheckedCreateInput): Promise<ReferralCheckout> {
      return prisma.referralCheckout.create({ data: row });
    },

    async checkoutById(id: string): Promise<ReferralCheckout | null> {
      return prisma.referralCheckout.findUnique({ where: { id } });
    },

    async checkoutsOf(organizationId: string): Promise<ReferralCheckout[]> {
      return prisma.referralCheckout.findMany({ where: { organizationId }, orderBy: { createdAt: 'desc' }, take: 200 });
    },

    /**
     * Claims the checkout for the buyer's funding `txid` before it is broadcast: true when it had none, or had
     * this one (a retry). A second funding is refused here, so that one covenant is funded once.
     */
    async claimFunding(id: string, txid: string): Promise<boolean> {
      const { count } = await prisma.referralCheckout.updateMany({ where: { id, fundingTxid: null }, data: { fundingTxid: txid } });
      if (count === 1) return true;
      return (await prisma.referralCheckout.findUnique({ where: { id }, select: { fundingTxid: true } }))?.fundingTxid === txid;
    },

    /** Gives the claim up: the chain refused the funding. */
    async releaseFunding(id: string, txid: string): Promise<void> {
      await prisma.referralCheckout.updateMany({ where: { id, fundingTxid: txid, fundingTransaction: null }, data: { fundingTxid: null } });
    },

    async recordFunding(id: string, txid: string, transaction: string): Promise<ReferralCheckout> {
      return prisma.referralCheckout.update({ where: { id, fundingTxid: txid }, data: { fundingTransaction: transaction } });
    },

    async recordSpend(id: string, spendTxid: string, paidAt: Date): Promise<ReferralCheckout> {
      return prisma.referralCheckout.update({ where: { id }, data: { spendTxid, paidAt } });
    },
  };
}

export type ReferralRepository = ReturnType<typeof createReferralRepository>;
