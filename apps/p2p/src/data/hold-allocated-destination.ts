import type { Prisma } from '../generated/prisma/client.js';

export type AllocatedChild = { organizationId: string; script: string; xpub: string; derivationIndex: number };

/**
 * Records the child of the xpub handed out for a sale, by its script, held until `expiresAt`; a child handed
 * out again (its window full) keeps one row, held until the later expiry. Inside the allocating transaction.
 */
export async function holdAllocatedDestination(tx: Prisma.TransactionClient, child: AllocatedChild, expiresAt: Date): Promise<void> {
  const key = { organizationId: child.organizationId, script: child.script };
  const held = { xpub: child.xpub, derivationIndex: child.derivationIndex };
  const current = await tx.allocatedDestination.findUnique({ where: { organizationId_script: key }, select: { expiresAt: true } });
  const latest = current && current.expiresAt > expiresAt ? current.expiresAt : expiresAt;
  await tx.allocatedDestination.upsert({
    where: { organizationId_script: key },
    create: { ...key, ...held, expiresAt },
    update: { ...held, expiresAt: latest },
  });
}
