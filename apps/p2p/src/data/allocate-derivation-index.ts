import { AppError, type SqlQueries } from '@ctk/shared';

export type DerivationWindow = {
  organizationId: string;
  xpub: string;
  /** How many children past the highest paid one may be handed out (a wallet's gap limit). */
  gapLimit: number;
  /** How many children of the window anonymous opens may never hold (kept for staff). */
  staffReserved: number;
  /** How many children of the window one anonymous client may hold at once. */
  perClient: number;
  /** Until when what the child is handed out for may be paid: it is held, and handed out to nothing else, until then. */
  holdUntil: Date;
  /** What holds it: "paymail", "paygate", "pos.order", ... */
  purpose: string;
  /** Whether an anonymous caller opened it (a paymail or P2P destination, a 402, a pay-link order, a checkout). */
  anonymous: boolean;
  /** The anonymous caller's client address ('' when unknown or staff): bounded by `perClient`. */
  client: string;
};

/**
 * Paymail destinations are told apart by their reference (P2P) or settled by nothing here (a plain
 * destination): past its share, a client's paymail destinations share a child it holds for paymail already.
 */
const SHARED_PURPOSE = 'paymail';

// Locks the xpub's counter row (the upsert takes the row lock), so everything below runs one request at
// a time per xpub: a hundred at once cannot pass the limit, or take one child twice, between a read and a write.
const LOCK_COUNTER = `INSERT INTO derivation_counters (organization_id, xpub, next_index, highest_paid_index, updated_at)
  VALUES ($1::uuid, $2, 0, -1, now())
  ON CONFLICT (organization_id, xpub) DO UPDATE SET updated_at = now()
  RETURNING next_index, highest_paid_index`;

// The holds within the window still running, and the earliest end of one: all of them, the anonymous ones,
// and client $5's (anonymous too), in one pass.
const HOLDS = `SELECT COUNT(*)::int AS held, MIN(held_until) AS earliest,
    COUNT(*) FILTER (WHERE anonymous)::int AS anonymous_held, MIN(held_until) FILTER (WHERE anonymous) AS anonymous_earliest,
    COUNT(*) FILTER (WHERE anonymous AND client = $5)::int AS own_held,
    MIN(held_until) FILTER (WHERE anonymous AND client = $5) AS own_earliest
  FROM derived_addresses
  WHERE organization_id = $1::uuid AND xpub = $2 AND derivation_index > $3 AND held_until > $4::timestamp(3)`;

const TAKE_FRESH = `WITH advanced AS (
    UPDATE derivation_counters SET next_index = next_index + 1
    WHERE organization_id = $1::uuid AND xpub = $2 RETURNING next_index - 1 AS index)
  INSERT INTO derived_addresses (organization_id, xpub, derivation_index, held_until, purpose, anonymous, client)
  SELECT $1::uuid, $2, index, $3::timestamp(3), $4, $5, $6 FROM advanced
  RETURNING derivation_index AS index`;

// The client's own child held for the same purpose the longest: held on until the later of the two ends.
const SHARE_OWN = `UPDATE derived_addresses SET held_until = GREATEST(held_until, $4::timestamp(3))
  WHERE (organization_id, xpub, derivation_index) = (
    SELECT organization_id, xpub, derivation_index FROM derived_addresses
    WHERE organization_id = $1::uuid AND xpub = $2 AND derivation_index > $3 AND held_until > $5::timestamp(3)
      AND anonymous AND client = $6 AND purpose = $7
    ORDER BY held_until DESC, derivation_index DESC LIMIT 1)
  RETURNING derivation_index AS index`;

// The child within the window free longest (its hold ended first): nothing will settle a payment to it any
// more, and one released early (ReleaseDestination), whose payer may still pay it late, is taken last.
const TAKE_ENDED = `UPDATE derived_addresses SET held_until = $4::timestamp(3), purpose = $6, anonymous = $7, client = $9
  WHERE (organization_id, xpub, derivation_index) = (
    SELECT organization_id, xpub, derivation_index FROM derived_addresses
    WHERE organization_id = $1::uuid AND xpub = $2 AND derivation_index > $3 AND derivation_index <= $3 + $5
      AND held_until <= $8::timestamp(3)
    ORDER BY held_until, derivation_index LIMIT 1)
  RETURNING derivation_index AS index`;

/**
 * The child index of the xpub for a new destination, in the caller's transaction (decision 0022). Never a
 * child still held for something that may be paid: a fresh one while it is at most `gapLimit` past the
 * highest paid index (a wallet restored from its seed, which stops after that many unused addresses in a
 * row, finds every payment), else the one within that window whose hold ended first. Anonymous opens hold at
 * most `gapLimit - staffReserved` children at once, so staff are never starved; past that they are
 * `unavailable`, with when the earliest of their holds ends. One anonymous client holds at most `perClient`
 * of them, so no one caller takes them all; past that it is `rate_limited` until its earliest hold ends. A
 * paymail destination past either bound shares a child its client holds for paymail, if it holds one. A
 * staff open with no child free is `failed_precondition`, saying how many payments are awaited.
 */
export async function allocateDerivationIndex(sql: SqlQueries, window: DerivationWindow): Promise<number> {
  const { organizationId, xpub, gapLimit } = window;
  const [counter] = await sql.rows<{ nextIndex: number; highestPaidIndex: number }>(LOCK_COUNTER, [organizationId, xpub]);
  const next = Number(counter!.nextIndex);
  const highestPaid = Number(counter!.highestPaidIndex);
  // Compared in the process's clock, as the hold was set: one clock decides when a hold ends.
  const now = new Date();
  const counted = window.anonymous ? await holds(sql, window, highestPaid, now) : null;
  const anonymous = counted && counted.anonymous;
  const own = counted && window.client ? counted.own : null;
  const ownFull = own !== null && own.held >= window.perClient;
  if (ownFull || (anonymous && anonymous.held >= anonymousCap(window))) {
    const shared = await shareOwnChild(sql, window, highestPaid, now);
    if (shared !== null) return shared;
    throw ownFull ? clientFull(own, window, now) : anonymousFull(anonymous!, window, now);
  }
  if (next <= highestPaid + gapLimit) return takeFresh(sql, window);
  const [ended] = await sql.rows<{ index: number }>(TAKE_ENDED, [
    organizationId,
    xpub,
    highestPaid,
    window.holdUntil,
    gapLimit,
    window.purpose,
    window.anonymous,
    now,
    window.client,
  ]);
  if (ended) return Number(ended.index);
  const { all } = counted ?? (await holds(sql, window, highestPaid, now));
  // Staff's orders hold the rest of the window: the anonymous caller waits for the earliest hold of any.
  if (anonymous) {
    const shared = await shareOwnChild(sql, window, highestPaid, now);
    if (shared !== null) return shared;
    throw anonymousFull({ held: anonymous.held, earliest: all.earliest }, window, now);
  }
  throw new AppError(
    'failed_precondition',
    `All ${gapLimit} receiving addresses the merchant's wallet watches (its gap limit) are awaiting a payment (${all.held} open ` +
      `payments${all.earliest ? `; the earliest hold ends at ${all.earliest.toISOString()}` : ''}): take one of those payments, ` +
      `cancel an order that will not be paid and wait for its hold to end, or raise P2P_GAP_LIMIT along with the gap limit of the wallet.`,
    { awaited_payments: all.held, gap_limit: gapLimit, ...(all.earliest ? { earliest_hold_ends_at: all.earliest.toISOString() } : {}) },
  );
}

/** Children anonymous opens may hold at once: the gap limit less the staff reserve, and always at least one. */
export function anonymousCap(window: Pick<DerivationWindow, 'gapLimit' | 'staffReserved'>): number {
  return Math.max(1, window.gapLimit - window.staffReserved);
}

type Holds = { held: number; earliest: Date | null };

type HoldsRow = Record<'held' | 'anonymousHeld' | 'ownHeld', number> &
  Record<'earliest' | 'anonymousEarliest' | 'ownEarliest', Date | null>;

/**
 * The holds running in the window: all of them, the anonymous ones, and the window's client's (none without
 * one). Counted once, before any child is taken, in the counter's lock: nothing changes them meanwhile.
 */
async function holds(
  sql: SqlQueries,
  window: DerivationWindow,
  highestPaid: number,
  now: Date,
): Promise<Record<'all' | 'anonymous' | 'own', Holds>> {
  const [row] = await sql.rows<HoldsRow>(HOLDS, [window.organizationId, window.xpub, highestPaid, now, window.client]);
  const of = (held: number | undefined, earliest: Date | null | undefined): Holds => ({
    held: Number(held ?? 0),
    earliest: earliest ? new Date(earliest) : null,
  });
  return {
    all: of(row?.held, row?.earliest),
    anonymous: of(row?.anonymousHeld, row?.anonymousEarliest),
    own: of(row?.ownHeld, row?.ownEarliest),
  };
}

function anonymousFull(holds: Holds, window: DerivationWindow, now: Date): AppError {
  const retryAt = holds.earliest ?? window.holdUntil;
  const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  return new AppError(
    'unavailable',
    `The merchant's receiving addresses are all held for payments anyone may open (${holds.held} held, at most ` +
      `${anonymousCap(window)} at once; the other ${window.gapLimit - anonymousCap(window)} are kept for staff's orders): try again after ${retryAt.toISOString()} (in ${seconds} s), when the earliest hold ends.`,
    { retry_after_seconds: seconds, retry_at: retryAt.toISOString() },
  );
}

function clientFull(own: Holds, window: DerivationWindow, now: Date): AppError {
  const retryAt = own.earliest ?? window.holdUntil;
  const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  return new AppError(
    'rate_limited',
    `This client already holds ${own.held} of the merchant's receiving addresses for payments not yet made (at most ` +
      `${window.perClient} at once, so that no one caller holds them all): pay one of them, or try again after ${retryAt.toISOString()} ` +
      `(in ${seconds} s), when the earliest of those holds ends.`,
    { retry_after_seconds: seconds, retry_at: retryAt.toISOString(), held: own.held, per_client: window.perClient },
  );
}

/** For a paymail destination of a known client, a child that client holds for paymail already, held on; else null. */
async function shareOwnChild(sql: SqlQueries, window: DerivationWindow, highestPaid: number, now: Date): Promise<number | null> {
  if (!window.client || window.purpose !== SHARED_PURPOSE) return null;
  const { organizationId, xpub, holdUntil, client, purpose } = window;
  const [row] = await sql.rows<{ index: number }>(SHARE_OWN, [organizationId, xpub, highestPaid, holdUntil, now, client, purpose]);
  return row ? Number(row.index) : null;
}

async function takeFresh(
  sql: SqlQueries,
  { organizationId, xpub, holdUntil, purpose, anonymous, client }: DerivationWindow,
): Promise<number> {
  const [row] = await sql.rows<{ index: number }>(TAKE_FRESH, [organizationId, xpub, holdUntil, purpose, anonymous, client]);
  return Number(row!.index);
}
