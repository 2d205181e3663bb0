import type { SqlQueries } from '@ctk/shared';

export type AllocatedChild = { organizationId: string; script: string; xpub: string; derivationIndex: number };

// One statement, where a read and an upsert were two: the row inserted, or held on until the later expiry.
const HOLD = `INSERT INTO allocated_destinations (organization_id, script, xpub, derivation_index, expires_at)
  VALUES ($1::uuid, $2, $3, $4, $5::timestamp(3))
  ON CONFLICT (organization_id, script) DO UPDATE SET xpub = EXCLUDED.xpub, derivation_index = EXCLUDED.derivation_index,
    expires_at = GREATEST(allocated_destinations.expires_at, EXCLUDED.expires_at)`;

/**
 * Records the child of the xpub handed out for a sale, by its script, held until `expiresAt`; a child handed
 * out again (its window full) keeps one row, held until the later expiry. After the child's allocation (decision 0052).
 */
export async function holdAllocatedDestination(sql: SqlQueries, child: AllocatedChild, expiresAt: Date): Promise<void> {
  await sql.rows(HOLD, [child.organizationId, child.script, child.xpub, child.derivationIndex, expiresAt]);
}
