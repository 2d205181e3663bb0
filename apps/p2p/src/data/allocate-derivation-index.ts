import { AppError, type SqlQueries } from '@ctk/shared';

/**
 * How a child of the organisation's xpub is handed out (decision 0022): within the window, held until
 * `holdUntil` for `purpose` and for nothing else, and bounded with the other anonymous opens when `anonymous`,
 * and with the client's own when its `client` address is known.
 */
export type DerivationWindow = {
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

/** The organisation's wallet as the child was taken from it, and the child (null: no xpub, nothing taken). */
export type WalletChild = { walletXpub: string | null; receivingAddress: string | null; index: number | null };

// Decision 0052: the wallet read, and the rules below run in the function of the migration
// `allocate_derivation_index` (which takes nothing for a wallet without an xpub), in one statement, so that no
// round trip to p2p holds the xpub's counter row locked.
const ALLOCATE = `SELECT w.wallet_xpub, w.receiving_address, a.taken, a.refusal, a.held, a.earliest
  FROM organization_wallets w CROSS JOIN LATERAL allocate_derivation_index(w.organization_id, w.wallet_xpub, $2::int, $3::int,
    $4::int, $5::timestamp(3), $6, $7::boolean, $8, $9::timestamp(3)) a
  WHERE w.organization_id = $1::uuid`;

type Allocation = {
  walletXpub: string | null;
  receivingAddress: string | null;
  taken: number | null;
  refusal: 'client' | 'anonymous' | 'window' | null;
  held: number | null;
  earliest: Date | null;
};

/**
 * The organisation's wallet and, when it has an xpub, the child index for a new destination (decision 0022),
 * in one statement: in the caller's transaction, or its own. Null when the organisation registered no wallet.
 * Never a child still held for something that may be paid: a fresh one while it is at most `gapLimit` past the
 * highest paid index (a wallet restored from its seed, which stops after that many unused addresses in a row,
 * finds every payment), else the one within that window whose hold ended first. Anonymous opens hold at most
 * `gapLimit - staffReserved` children at once, so staff are never starved; past that they are `unavailable`,
 * with when the earliest of their holds ends. One anonymous client holds at most `perClient` of them, so no one
 * caller takes them all; past that it is `rate_limited` until its earliest hold ends. A paymail destination
 * past either bound shares a child its client holds for paymail, if it holds one. A staff open with no child
 * free is `failed_precondition`, saying how many payments are awaited.
 */
export async function allocateWalletChild(sql: SqlQueries, organizationId: string, window: DerivationWindow): Promise<WalletChild | null> {
  const { gapLimit } = window;
  // Compared in the process's clock, as the hold was set: one clock decides when a hold ends.
  const now = new Date();
  const [row] = await sql.rows<Allocation>(ALLOCATE, [
    organizationId,
    gapLimit,
    window.staffReserved,
    window.perClient,
    window.holdUntil,
    window.purpose,
    window.anonymous,
    window.client,
    now,
  ]);
  if (!row) return null;
  const wallet = { walletXpub: row.walletXpub || null, receivingAddress: row.receivingAddress || null };
  if (!wallet.walletXpub || row.taken !== null) return { ...wallet, index: row.taken === null ? null : Number(row.taken) };
  const holds: Holds = { held: Number(row.held ?? 0), earliest: row.earliest ? new Date(row.earliest) : null };
  if (row.refusal === 'client') throw clientFull(holds, window, now);
  if (row.refusal === 'anonymous') throw anonymousFull(holds, window, now);
  throw new AppError(
    'failed_precondition',
    `All ${gapLimit} receiving addresses the merchant's wallet watches (its gap limit) are awaiting a payment (${holds.held} open ` +
      `payments${holds.earliest ? `; the earliest hold ends at ${holds.earliest.toISOString()}` : ''}): take one of those payments, ` +
      `cancel an order that will not be paid and wait for its hold to end, or raise P2P_GAP_LIMIT along with the gap limit of the wallet.`,
    {
      awaited_payments: holds.held,
      gap_limit: gapLimit,
      ...(holds.earliest ? { earliest_hold_ends_at: holds.earliest.toISOString() } : {}),
    },
  );
}

/** Children anonymous opens may hold at once: the gap limit less the staff reserve, and always at least one. */
export function anonymousCap(window: Pick<DerivationWindow, 'gapLimit' | 'staffReserved'>): number {
  return Math.max(1, window.gapLimit - window.staffReserved);
}

type Holds = { held: number; earliest: Date | null };

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
