import type { Prisma } from '../generated/prisma/client.js';

type Sql = Pick<Prisma.TransactionClient, '$executeRawUnsafe'>;

// The hold is named by what it was handed out with (its end and purpose): a child handed out again since
// carries another, so a late or repeated release never ends a hold it was not given for.
const RELEASE = `UPDATE derived_addresses SET held_until = $5::timestamp(3)
  WHERE organization_id = $1::uuid AND derivation_index = $2 AND held_until = $3::timestamp(3) AND purpose = $4
    AND held_until > $5::timestamp(3)`;

/**
 * Ends a child's hold now (decision 0022): what it was handed out for can only refund a payment. The child
 * counts as free from now, so the allocator, which hands out the child free longest first, takes it only
 * after every child whose hold ended earlier. True when that hold was running.
 */
export async function releaseDerivationIndex(
  sql: Sql,
  hold: { organizationId: string; derivationIndex: number; heldUntil: Date; purpose: string },
): Promise<boolean> {
  // The process's clock, as the allocator compares holds with it.
  const now = new Date();
  const changed = await sql.$executeRawUnsafe(RELEASE, hold.organizationId, hold.derivationIndex, hold.heldUntil, hold.purpose, now);
  return changed > 0;
}
