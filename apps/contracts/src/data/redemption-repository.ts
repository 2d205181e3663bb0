import { isUniqueViolation } from '@ctk/shared';
import type { PrismaClient, TokenRedemption, TokenRedemptionAddress } from '../generated/prisma/client.js';

export type { TokenRedemption, TokenRedemptionAddress };

/** Redemption addresses (one per token and order) and the transfers redeemed (one per output). */
export function createRedemptionRepository(prisma: PrismaClient) {
  return {
    async addressOf(tokenId: string, orderNumber: string): Promise<TokenRedemptionAddress | null> {
      return prisma.tokenRedemptionAddress.findUnique({ where: { tokenId_orderNumber: { tokenId, orderNumber } } });
    },

    /** Stores an order's redemption address; when another was stored for it first, answers that one (`stored` false). */
    async insertAddress(row: TokenRedemptionAddress): Promise<{ address: TokenRedemptionAddress; stored: boolean }> {
      try {
        return { address: await prisma.tokenRedemptionAddress.create({ data: row }), stored: true };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const first = await prisma.tokenRedemptionAddress.findUniqueOrThrow({
          where: { tokenId_orderNumber: { tokenId: row.tokenId, orderNumber: row.orderNumber } },
        });
        return { address: first, stored: false };
      }
    },

    async byOutput(txid: string, vout: number): Promise<TokenRedemption | null> {
      return prisma.tokenRedemption.findUnique({ where: { txid_vout: { txid, vout } } });
    },

    /**
     * Records a redemption; an output recorded already (by a redemption at the same moment) answers the row
     * recorded first, which the caller compares: an output redeems once.
     */
    async insertRedemption(row: TokenRedemption): Promise<TokenRedemption> {
      try {
        return await prisma.tokenRedemption.create({ data: row });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return prisma.tokenRedemption.findUniqueOrThrow({ where: { txid_vout: { txid: row.txid, vout: row.vout } } });
      }
    },
  };
}

export type RedemptionRepository = ReturnType<typeof createRedemptionRepository>;
