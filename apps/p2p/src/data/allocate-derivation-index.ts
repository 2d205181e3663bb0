import type { Prisma } from '../generated/prisma/client.js';

type Sql = Pick<Prisma.TransactionClient, '$queryRawUnsafe'>;

export type DerivationWindow = {
  organizationId: string;
  xpub: string;
  /** How many children past the highest paid one may be handed out (a wallet's gap limit). */
  gapLimit: number;
  /** Until when the destination asked for may be paid: its child is held for it until then. */
  holdUntil: Date;
};

// Locks the xpub's counter row (the upsert takes the row lock), so everything below runs one request at
// a time per xpub: a hundred at once cannot pass the limit between a read and a write.
const LOCK_COUNTER = `INSERT INTO derivation_counters (organization_id, xpub, next_index, highest_paid_index, updated_at)
  VALUES ($1::uuid, $2, 0, -1, now())
  ON CONFLICT (organization_id, xpub) DO UPDATE SET updated_at = now()
  RETURNING next_index, highest_paid_index`;

const TAKE_FRESH = `WITH advanced AS (
    UPDATE derivation_counters SET next_index = next_index + 1
    WHERE organization_id = $1::uuid AND xpub = $2 RETURNING next_index - 1 AS index)
  INSERT INTO derived_addresses (organization_id, xpub, derivation_index, held_until)
  SELECT $1::uuid, $2, index, $3::timestamp(3) FROM advanced
  RETURNING derivation_index AS index`;

// The child held least long within the window (a gap limit lowered since leaves rows past it): an expired
// one first (its destination can no longer be paid), else the one whose destination was issued first.
// Held until the later of the two destinations' expiries.
const TAKE_HELD = `UPDATE derived_addresses SET held_until = GREATEST(held_until, $4::timestamp(3))
  WHERE (organization_id, xpub, derivation_index) = (
    SELECT organization_id, xpub, derivation_index FROM derived_addresses
    WHERE organization_id = $1::uuid AND xpub = $2 AND derivation_index > $3 AND derivation_index <= $3 + $5
    ORDER BY held_until, derivation_index LIMIT 1)
  RETURNING derivation_index AS index`;

/**
 * The child index of the xpub for a new destination, in the caller's transaction. A fresh one while it is
 * at most `gapLimit` past the highest paid index, so a wallet restored from its seed (which stops after
 * that many unused addresses in a row) finds every payment; past that, a child already handed out within
 * the window is handed out again (an expired one, else the oldest), rather than refusing the payer.
 */
export async function allocateDerivationIndex(sql: Sql, window: DerivationWindow): Promise<number> {
  const { organizationId, xpub, gapLimit, holdUntil } = window;
  const [counter] = await sql.$queryRawUnsafe<{ next_index: number; highest_paid_index: number }[]>(LOCK_COUNTER, organizationId, xpub);
  const next = Number(counter!.next_index);
  const highestPaid = Number(counter!.highest_paid_index);
  if (next <= highestPaid + gapLimit) return takeFresh(sql, window);
  const [held] = await sql.$queryRawUnsafe<{ index: number }[]>(TAKE_HELD, organizationId, xpub, highestPaid, holdUntil, gapLimit);
  // Every child handed out past the highest paid one has its row, so this is not expected: derive as before rather than fail.
  return held ? Number(held.index) : takeFresh(sql, window);
}

async function takeFresh(sql: Sql, { organizationId, xpub, holdUntil }: DerivationWindow): Promise<number> {
  const [row] = await sql.$queryRawUnsafe<{ index: number }[]>(TAKE_FRESH, organizationId, xpub, holdUntil);
  return Number(row!.index);
}
