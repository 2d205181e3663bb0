import type { PrismaClient, ProviderAccount } from '../generated/prisma/client.js';

export type { ProviderAccount };
export type ProviderAccountRepository = ReturnType<typeof createProviderAccountRepository>;

/** Organisations' provider accounts (their sealed webhook secrets), one per (organisation, provider). */
export function createProviderAccountRepository(prisma: PrismaClient) {
  return {
    /** Whether the organisation has connected any provider. */
    async any(organizationId: string): Promise<boolean> {
      return (await prisma.providerAccount.count({ where: { organizationId } })) > 0;
    },

    get(organizationId: string, provider: string): Promise<ProviderAccount | null> {
      return prisma.providerAccount.findUnique({ where: { organizationId_provider: { organizationId, provider } } });
    },

    /**
     * Sets the secret; the one it replaces stays valid until `previousValidUntil`. The row is locked while
     * the previous secret is read, so of two concurrent changes the second keeps the first's as previous.
     */
    set(
      organizationId: string,
      provider: string,
      next: { secretSealed: Uint8Array<ArrayBuffer>; secretLast4: string },
      now: Date,
      previousValidUntil: Date,
    ): Promise<ProviderAccount> {
      return prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT 1 FROM provider_accounts WHERE organization_id = ${organizationId}::uuid AND provider = ${provider} FOR UPDATE`;
        const current = await tx.providerAccount.findUnique({ where: { organizationId_provider: { organizationId, provider } } });
        if (!current) {
          return tx.providerAccount.create({ data: { organizationId, provider, ...next, createdAt: now, updatedAt: now } });
        }
        return tx.providerAccount.update({
          where: { organizationId_provider: { organizationId, provider } },
          data: { ...next, previousSecretSealed: current.secretSealed, previousValidUntil, updatedAt: now },
        });
      });
    },
  };
}
