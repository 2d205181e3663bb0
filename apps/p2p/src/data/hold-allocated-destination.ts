import { batchedWrites, jsonArg, type SqlQueries } from '@ctk/shared';

export type AllocatedChild = { organizationId: string; script: string; xpub: string; derivationIndex: number };

/** Records children handed out; see allocatedDestinations. */
export type HoldAllocatedDestination = (child: AllocatedChild, expiresAt: Date) => Promise<void>;

// One statement, where a read and an upsert were two: each row inserted, or held on until the later expiry. Its rows
// from one json argument (jsonArg).
const HOLD = `INSERT INTO allocated_destinations (organization_id, script, xpub, derivation_index, expires_at)
  SELECT * FROM json_to_recordset($1::json) AS d(organization_id uuid, script text, xpub text, derivation_index int4, expires_at timestamp(3))
  ON CONFLICT (organization_id, script) DO UPDATE SET xpub = EXCLUDED.xpub, derivation_index = EXCLUDED.derivation_index,
    expires_at = GREATEST(allocated_destinations.expires_at, EXCLUDED.expires_at)`;

/**
 * Records the child of the xpub handed out for a sale, by its script, held until `expiresAt`; a child handed
 * out again (its window full) keeps one row, held until the later expiry. After the child's allocation (decision
 * 0052). The children handed out at once are recorded in one statement (batchedWrites); two of one script in it
 * fail it, and are then recorded one by one.
 */
export function allocatedDestinations(sql: SqlQueries): HoldAllocatedDestination {
  const hold = batchedWrites(async (held: { child: AllocatedChild; expiresAt: Date }[]) => {
    const rows = held.map(({ child, expiresAt }) => ({
      organization_id: child.organizationId,
      script: child.script,
      xpub: child.xpub,
      derivation_index: child.derivationIndex,
      expires_at: expiresAt,
    }));
    await sql.rows(HOLD, [jsonArg(rows)]);
    return held.map(() => undefined);
  });
  return (child, expiresAt) => hold({ child, expiresAt });
}
