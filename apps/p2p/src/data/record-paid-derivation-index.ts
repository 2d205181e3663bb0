import type { SqlQueries } from '@ctk/shared';

// The counter row first (the lock every allocation takes), then the rows it frees.
const RAISE = `UPDATE derivation_counters SET highest_paid_index = GREATEST(highest_paid_index, $3::int4), updated_at = now()
  WHERE organization_id = $1::uuid AND xpub = $2`;
const FORGET = `DELETE FROM derived_addresses WHERE organization_id = $1::uuid AND xpub = $2 AND derivation_index <= $3::int4`;

/**
 * In the caller's transaction: a child of the xpub is paid, so the window of children that may be
 * handed out moves up to it (a restored wallet finds it, and looks the gap limit further). Children at or
 * below it are never handed out again.
 */
export async function recordPaidDerivationIndex(
  tx: SqlQueries,
  paid: { organizationId: string; xpub: string; derivationIndex: number },
): Promise<void> {
  await tx.rows(RAISE, [paid.organizationId, paid.xpub, paid.derivationIndex]);
  await tx.rows(FORGET, [paid.organizationId, paid.xpub, paid.derivationIndex]);
}
