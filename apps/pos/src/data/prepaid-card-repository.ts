import { randomUUID } from 'node:crypto';
import type { SqlQueries, Statement } from '@ctk/shared';
import type { Holder } from '../cards/card-holder.js';
import type { Prisma, PrismaClient, PrepaidCard, PrepaidCardActivity } from '../generated/prisma/client.js';
import { ORDER_WITH_PARTS, orderWithPartsOf, type OrderWithParts, type OrderWithPartsRow } from './order-with-parts.js';
import { jsonRows, typed, type Kind } from './json-rows.js';

export type { PrepaidCard, PrepaidCardActivity };
export type PrepaidActivityRow = PrepaidCardActivity & { order: { orderNumber: string } | null };
/** A card with the number of the order that sells it and, when asked for, its latest activities. */
export type PrepaidCardRow = PrepaidCard & { sellingOrder: { orderNumber: string } | null; activities?: PrepaidActivityRow[] };
export type ActivityKind = 'issue' | 'redeem' | 'restore' | 'transfer';

type Db = PrismaClient | Prisma.TransactionClient;

/** How many of its latest activities a card is answered with. */
export const ACTIVITIES_SHOWN = 100;

const sellingOrder = { select: { orderNumber: true } } as const;
const withActivities = {
  sellingOrder,
  activities: { orderBy: { sequence: 'desc' }, take: ACTIVITIES_SHOWN, include: { order: { select: { orderNumber: true } } } },
} as const;

/*
 * Prepaid cards and their ledger, over Prisma and, on a use's path, Sql (decision 0048). Every change of a card
 * runs in the caller's transaction with the card's row locked (lockCard, or a use's draw as it commits: drawsAtCommit),
 * and writes its activity there: the balance and the ledger move together.
 */

/** The card's organisation and identifier hash (of an id that is a UUID): what a change needs to find it. */
export async function cardKeyOf(
  sql: SqlQueries,
  id: string,
): Promise<{ id: string; identifierHash: string; organizationId: string } | null> {
  const [card] = await sql.rows<{ id: string; identifierHash: string; organizationId: string }>(
    'SELECT id, identifier_hash, organization_id FROM prepaid_cards WHERE id = $1::uuid',
    [id],
  );
  return card ?? null;
}

// Every field of an activity, so that a field added to the schema fails the type check until it is read here.
const ACTIVITY: Record<keyof PrepaidCardActivity | 'orderNumber', Kind> = {
  id: 'plain',
  cardId: 'plain',
  sequence: 'bigint',
  kind: 'plain',
  amountMinor: 'bigint',
  balanceAfterMinor: 'bigint',
  taxMinor: 'bigint',
  tipMinor: 'bigint',
  orderId: 'plain',
  restoresId: 'plain',
  occurredAt: 'date',
  orderNumber: 'plain',
};

const SELLING_ORDER_NUMBER = '(SELECT o.order_number FROM orders o WHERE o.prepaid_card_id = c.id) AS selling_order_number';
const CARD = `SELECT c.*, ${SELLING_ORDER_NUMBER} FROM prepaid_cards c WHERE c.id = $1::uuid`;
/**
 * The card with its latest $2 activities, each with its order's number, in one statement. A card's ledger is
 * numbered 1 to its `last_sequence` with no gap, so its latest $2 are the range of (card_id, sequence) past
 * `last_sequence - $2`, read before their orders are joined. Limited only after the join, a read of the card
 * read, joined and sorted its whole ledger (a card used 3,400 times: 1.9 ms of the database).
 */
const CARD_WITH_ACTIVITIES = `SELECT c.*, ${SELLING_ORDER_NUMBER}, ${jsonRows(
  ACTIVITY,
  `(SELECT a.*, o.order_number
      FROM (SELECT * FROM prepaid_card_activities WHERE card_id = c.id AND sequence > c.last_sequence - $2
        ORDER BY sequence DESC LIMIT $2) a
      LEFT JOIN orders o ON o.id = a.order_id) p`,
  'p.sequence DESC',
)} AS activities
  FROM prepaid_cards c WHERE c.id = $1::uuid`;

/**
 * $1 cards, $2 activities (uuid[] of one length): each card with its activity of the same place (a use's, once
 * committed), with its order's number, in one statement, each row under its place (`use_index`, from 0).
 */
const CARDS_WITH_ACTIVITY = `SELECT (u.n - 1)::int4 AS use_index, c.*, ${SELLING_ORDER_NUMBER}, ${jsonRows(
  ACTIVITY,
  `(SELECT a.*, o.order_number FROM prepaid_card_activities a LEFT JOIN orders o ON o.id = a.order_id
      WHERE a.id = u.activity_id AND a.card_id = c.id) p`,
  'p.sequence',
)} AS activities
  FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS u(card_id, activity_id, n)
  JOIN prepaid_cards c ON c.id = u.card_id ORDER BY u.n`;

type CardRead = PrepaidCard & { sellingOrderNumber: string | null; activities?: Record<string, unknown>[] };

/**
 * The card of an id (a UUID) and, when asked for, its latest activities, newest first, in one statement without
 * Prisma's client (decision 0048).
 */
export async function cardById(sql: SqlQueries, id: string, activities = false): Promise<PrepaidCardRow | null> {
  const [row] = activities ? await sql.rows<CardRead>(CARD_WITH_ACTIVITIES, [id, ACTIVITIES_SHOWN]) : await sql.rows<CardRead>(CARD, [id]);
  return row ? cardOfRow(row) : null;
}

export type CardWithActivity = { card: PrepaidCardRow; activity: PrepaidActivityRow };

/**
 * The statement that reads each card of `uses` with its activity of `activityId` alone: what a use answers
 * (decision 0051), sent with the uses' commit (Sql.transactionThenRead). cardsWithActivityOf reads its rows.
 */
export function cardsWithActivityRead(uses: readonly { cardId: string; activityId: string }[]): Statement {
  return { text: CARDS_WITH_ACTIVITY, args: [uses.map((use) => use.cardId), uses.map((use) => use.activityId)] };
}

/** The rows of cardsWithActivityRead for `count` uses, in their order: undefined where the card or its activity is missing. */
export function cardsWithActivityOf(rows: readonly unknown[], count: number): (CardWithActivity | undefined)[] {
  const found: (CardWithActivity | undefined)[] = Array.from({ length: count }, () => undefined);
  for (const { useIndex, ...row } of rows as (CardRead & { useIndex: number })[]) {
    const { activities: [activity] = [], ...card } = cardOfRow(row);
    if (activity) found[useIndex] = { card, activity };
  }
  return found;
}

function cardOfRow({ sellingOrderNumber, activities, ...card }: CardRead): PrepaidCardRow {
  const found = { ...card, sellingOrder: numbered(sellingOrderNumber) };
  if (!activities) return found;
  return {
    ...found,
    activities: activities.map((raw) => {
      const { orderNumber, ...activity } = typed<PrepaidCardActivity & { orderNumber: string | null }>(raw, ACTIVITY);
      return { ...activity, order: numbered(orderNumber) };
    }),
  };
}

const numbered = (orderNumber: string | null) => (orderNumber === null ? null : { orderNumber });

export function cardByIdentifierHash(db: Db, identifierHash: string): Promise<PrepaidCardRow | null> {
  return db.prepaidCard.findUnique({ where: { identifierHash }, include: { sellingOrder } });
}

/** A user's cards, or an organisation's, newest first, after `after` when given, each with its latest activities. */
export function listCards(
  db: Db,
  of: { holderUserId: string } | { organizationId: string },
  take: number,
  after?: { at: Date; id: string },
): Promise<PrepaidCardRow[]> {
  const afterWhere = after && { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] };
  return db.prepaidCard.findMany({
    where: { ...of, ...afterWhere },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
    include: withActivities,
  });
}

/**
 * The cards held by each (organisation, holder address), void ones left out, newest first: one query for
 * them all (a page of POS cards asks for its addresses together).
 */
export function cardsHeldAtAddresses(db: Db, holders: readonly { organizationId: string; address: string }[]): Promise<PrepaidCard[]> {
  if (holders.length === 0) return Promise.resolve([]);
  return db.prepaidCard.findMany({
    where: {
      status: { not: 'void' },
      OR: holders.map((holder) => ({ organizationId: holder.organizationId, holderAddress: holder.address })),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** Whether the organisation has issued a card (sold or not). */
export async function hasCards(db: Db, organizationId: string): Promise<boolean> {
  return (await db.prepaidCard.findFirst({ where: { organizationId }, select: { id: true } })) !== null;
}

/** A new pending card, in the transaction that inserts the order selling it. */
export async function insertCard(tx: Prisma.TransactionClient, card: Prisma.PrepaidCardUncheckedCreateInput): Promise<void> {
  await tx.prepaidCard.create({ data: card, select: { id: true } });
}

/** What a change of a card checks, read with its row locked. */
export type LockedCard = Pick<PrepaidCard, 'id' | 'status' | 'balanceMinor' | 'currency' | 'identifierHash'>;

const CHECKED = 'SELECT id, status, balance_minor, currency, identifier_hash FROM prepaid_cards WHERE id = $1::uuid';

/** Locks the card's row (SELECT ... FOR UPDATE) until the transaction ends, and answers what a change checks of it now. */
export async function lockCard(tx: SqlQueries, id: string): Promise<LockedCard | undefined> {
  const [card] = await tx.rows<LockedCard>(`${CHECKED} FOR UPDATE`, [id]);
  return card;
}

/** What a change checks of the card as last committed, without its lock: a change that must hold reads it again under one. */
export async function readCard(tx: SqlQueries, id: string): Promise<LockedCard | undefined> {
  const [card] = await tx.rows<LockedCard>(CHECKED, [id]);
  return card;
}

/**
 * $1 orders, $2 cards (uuid[] of one length): each order with its parts and what a use checks of the card of the
 * same place beside it (its columns named `use_card_…`), each row under its place (`use_index`, from 0). Exported
 * for its generic plan's test (decision 0066).
 */
export const ORDERS_AND_CARDS_FOR_USE = `SELECT (u.n - 1)::int4 AS use_index, ${ORDER_WITH_PARTS},
    c.id AS use_card_id, c.status AS use_card_status, c.balance_minor AS use_card_balance_minor,
    c.currency AS use_card_currency, c.identifier_hash AS use_card_identifier_hash
  FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS u(order_id, card_id, n)
  JOIN orders o ON o.id = u.order_id JOIN prepaid_cards c ON c.id = u.card_id ORDER BY u.n`;

type OrderAndCardRow = OrderWithPartsRow & { useIndex: number } & Record<
    'useCardId' | 'useCardStatus' | 'useCardCurrency' | 'useCardIdentifierHash',
    string
  > & { useCardBalanceMinor: bigint };

/** What a use reads after its order's lock: the order with its parts (what stored value already paid among them) and the card. */
export type OrderAndCard = { order: OrderWithParts; card: LockedCard };

/**
 * In a transaction of uses, after their orders' locks (useTargetsOf), in one statement: for each use, the order
 * with its parts (as lockOrder answers it) and what the use checks of the card (as readCard reads it, or with its
 * row locked as lockCard does, when `lock`: one use alone). The orders' locks keep them as read. Undefined where
 * the order or the card is missing.
 */
export async function ordersAndCardsForUse(
  tx: SqlQueries,
  uses: readonly { orderId: string; cardId: string }[],
  lock: boolean,
): Promise<(OrderAndCard | undefined)[]> {
  const rows = await tx.rows<OrderAndCardRow>(lock ? `${ORDERS_AND_CARDS_FOR_USE} FOR UPDATE OF c` : ORDERS_AND_CARDS_FOR_USE, [
    uses.map((use) => use.orderId),
    uses.map((use) => use.cardId),
  ]);
  const found: (OrderAndCard | undefined)[] = uses.map(() => undefined);
  for (const row of rows) {
    const { useIndex, useCardId, useCardStatus, useCardBalanceMinor, useCardCurrency, useCardIdentifierHash, ...order } = row;
    found[useIndex] = {
      order: orderWithPartsOf(order),
      card: {
        id: useCardId,
        status: useCardStatus,
        balanceMinor: useCardBalanceMinor,
        currency: useCardCurrency,
        identifierHash: useCardIdentifierHash,
      },
    };
  }
  return found;
}

/** A use of a card on an order: what its `redeem` activity records (`id` chosen by the caller, so its event can name it first). */
export type Redeem = {
  id: string;
  cardId: string;
  identifierHash: string;
  orderId: string;
  amountMinor: bigint;
  taxMinor: bigint;
  tipMinor: bigint;
};

const DRAW_COLUMNS = 'id, card_id, identifier_hash, order_id, amount_minor, tax_minor, tip_minor, occurred_at';
const DRAW_ROW = '($1::uuid, $2::uuid, $3, $4::uuid, $5::bigint, $6::bigint, $7::bigint, $8::timestamp(3))';

/**
 * The uses' draws (a write for writeTogether, with the uses' others), taken as their transaction commits
 * (decision 0050): the trigger `prepaid_card_draw` takes each amount off its card's balance and appends its
 * `redeem` activity (under the use's `id`) with a conditional update that never goes below zero, whatever the
 * caller checked before, of a card still active and still under the identifier presented (a transfer re-keys
 * it); a card is empty when nothing is left. A card that no longer allows a use fails the commit
 * (isRefusedDraw), and every use of the transaction rolls back. Each card's row is locked from its draw to the
 * end of the commit, inside the database; the draws are inserted, and so taken, in the order of their cards' ids,
 * so that no two transactions drawing on the same cards each wait for the other (a deadlock).
 */
export function drawsAtCommit(uses: readonly Redeem[], now: Date): Statement {
  const sorted = [...uses].sort((a, b) => (a.cardId < b.cardId ? -1 : a.cardId > b.cardId ? 1 : 0));
  const args = sorted.flatMap((use) => [
    use.id,
    use.cardId,
    use.identifierHash,
    use.orderId,
    use.amountMinor,
    use.taxMinor,
    use.tipMinor,
    now,
  ]);
  const rows = sorted.map((_, index) => DRAW_ROW.replace(/\$(\d)/g, (__, n: string) => `$${index * 8 + Number(n)}`));
  return { text: `INSERT INTO prepaid_card_draws (${DRAW_COLUMNS}) VALUES ${rows.join(', ')}`, args };
}

/** The commit failed because the card no longer allowed a use's draw (drawsAtCommit): nothing of the use was written. */
export function isRefusedDraw(error: unknown): boolean {
  const cause = (error as { cause?: { kind?: unknown; code?: unknown } } | undefined)?.cause;
  return cause?.kind === 'postgres' && cause.code === REFUSED_DRAW;
}

/** The SQLSTATE the trigger raises for a draw the card no longer allows. */
const REFUSED_DRAW = 'CTK01';

/**
 * Adds `amount` to the card's balance (a restore: an active or empty card), or makes a pending or void
 * card active at its value (`activate`: its selling order was paid).
 */
export async function creditBalance(
  tx: SqlQueries,
  id: string,
  amount: bigint,
  now: Date,
  activate = false,
): Promise<{ balanceMinor: bigint; sequence: bigint } | undefined> {
  const [row] = await tx.rows<{ balanceMinor: bigint; sequence: bigint }>(activate ? ACTIVATE : CREDIT, [id, amount, now]);
  return row;
}

/** $1 card, $2 its value, $3 now. */
const ACTIVATE = `UPDATE prepaid_cards SET balance_minor = initial_minor, status = 'active', activated_at = $3::timestamp(3),
    last_sequence = last_sequence + 1, updated_at = $3::timestamp(3)
  WHERE id = $1::uuid AND status IN ('pending', 'void') AND initial_minor = $2::bigint
  RETURNING balance_minor, last_sequence AS sequence`;
/** $1 card, $2 amount, $3 now. */
const CREDIT = `UPDATE prepaid_cards SET balance_minor = balance_minor + $2::bigint, status = 'active',
    last_sequence = last_sequence + 1, updated_at = $3::timestamp(3)
  WHERE id = $1::uuid AND status IN ('active', 'empty')
  RETURNING balance_minor, last_sequence AS sequence`;

/** A new holder and identifier for the card; answers the next activity's sequence. */
export async function rekeyCard(
  tx: Prisma.TransactionClient,
  id: string,
  identifier: { hash: string; sealed: Buffer; last4: string },
  holder: Holder,
  now: Date,
): Promise<bigint> {
  const card = await tx.prepaidCard.update({
    where: { id },
    data: {
      identifierHash: identifier.hash,
      identifierSealed: Uint8Array.from(identifier.sealed),
      identifierLast4: identifier.last4,
      holderAddress: holder.address,
      holderPublicKey: holder.publicKey,
      holderUserId: holder.userId,
      lastSequence: { increment: 1 },
      updatedAt: now,
    },
    select: { lastSequence: true },
  });
  return card.lastSequence;
}

/** A pending card whose selling order will not be paid (expired or cancelled) is void. */
export async function voidPendingCard(tx: SqlQueries, id: string, now: Date): Promise<void> {
  await tx.rows(`UPDATE prepaid_cards SET status = 'void', updated_at = $2::timestamp(3) WHERE id = $1::uuid AND status = 'pending'`, [
    id,
    now,
  ]);
}

/** A row of a card's ledger to append. */
export type NewActivity = {
  cardId: string;
  sequence: bigint;
  kind: ActivityKind;
  amountMinor: bigint;
  balanceAfterMinor: bigint;
  orderId: string | null;
  taxMinor?: bigint;
  tipMinor?: bigint;
  restoresId?: string;
  occurredAt: Date;
};

const APPEND_ACTIVITY = `INSERT INTO prepaid_card_activities
    (id, card_id, sequence, kind, amount_minor, balance_after_minor, tax_minor, tip_minor, order_id, restores_id, occurred_at)
  VALUES ($1::uuid, $2::uuid, $3::bigint, $4, $5::bigint, $6::bigint, $7::bigint, $8::bigint, $9::uuid, $10::uuid, $11::timestamp(3))`;

/** Appends one row to the card's ledger; never updated nor deleted afterwards. */
export async function appendActivity(tx: SqlQueries, activity: NewActivity): Promise<void> {
  await tx.rows(APPEND_ACTIVITY, [
    randomUUID(),
    activity.cardId,
    activity.sequence,
    activity.kind,
    activity.amountMinor,
    activity.balanceAfterMinor,
    activity.taxMinor ?? 0n,
    activity.tipMinor ?? 0n,
    activity.orderId,
    activity.restoresId ?? null,
    activity.occurredAt,
  ]);
}

/** The redeems of an order that no restore has undone yet, by card id (the lock order of a restore), then sequence. */
export function liveRedeemsOf(tx: SqlQueries, orderId: string): Promise<PrepaidCardActivity[]> {
  return tx.rows<PrepaidCardActivity>(
    `SELECT a.* FROM prepaid_card_activities a WHERE a.order_id = $1::uuid AND a.kind = 'redeem'
      AND NOT EXISTS (SELECT 1 FROM prepaid_card_activities r WHERE r.restores_id = a.id)
    ORDER BY a.card_id, a.sequence`,
    [orderId],
  );
}

/**
 * Open orders past their expiry that a card paid part of, or that sell a card: they must be expired with
 * their uses restored (or their card void). Of `cardIds` only, when given. The few open orders past their
 * expiry are found first (by status and expiry), then matched to the cards, so a card's long ledger is not read.
 */
export async function expiredCardOrders(sql: SqlQueries, now: Date, cardIds?: readonly string[]): Promise<string[]> {
  const rows = cardIds
    ? await sql.rows<{ id: string }>(expiredOrdersOf('$2::uuid[]', '$1'), [now, cardIds])
    : await sql.rows<{ id: string }>(EXPIRED_CARD_ORDERS, [now]);
  return rows.map((row) => row.id);
}

/** expiredCardOrders' statement for the cards of the uuid[] `cards` at the timestamp `now` (a parameter or a column). */
const expiredOrdersOf = (cards: string, now: string) => `SELECT o.id FROM orders o
  WHERE o.status = 'open' AND o.expires_at <= ${now}::timestamp(3)
    AND (o.prepaid_card_id = ANY(${cards})
      OR (o.card_paid_minor > 0 AND EXISTS (SELECT 1 FROM prepaid_card_activities a
        WHERE a.order_id = o.id AND a.card_id = ANY(${cards}) AND a.kind = 'redeem')))
  ORDER BY o.expires_at LIMIT 1000`;
const EXPIRED_CARD_ORDERS = `SELECT o.id FROM orders o
  WHERE o.status = 'open' AND o.expires_at <= $1::timestamp(3) AND (o.prepaid_card_id IS NOT NULL OR o.card_paid_minor > 0)
  ORDER BY o.expires_at LIMIT 1000`;

/** What a use finds first: the card's key, the order's owner, and the card's orders to expire first. */
export type UseTargets = {
  card: { id: string; identifierHash: string; organizationId: string } | null;
  order: { id: string; organizationId: string } | null;
  expired: string[];
};

/**
 * $1 cards (uuid[]), $2 order numbers, $3 now, $4 organisations (text[]; one place a use): each order's row is
 * locked when it is its use's organisation's, every lock before anything is read (the initplan `locked`), in the
 * order of the orders' ids, so that no two transactions of uses each wait for the other (a deadlock). Exported for
 * its generic plan's test (decision 0066).
 */
export const USE_TARGETS = `WITH u AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $4::text[]) WITH ORDINALITY AS u(card_id, order_number, organization_id, n)),
  locked AS (
    SELECT l.id FROM orders l JOIN u ON l.order_number = u.order_number AND l.organization_id::text = u.organization_id
    ORDER BY l.id FOR UPDATE OF l)
  SELECT c.id AS card_id, c.identifier_hash, c.organization_id AS card_organization_id,
    o.id AS order_id, o.organization_id AS order_organization_id,
    ARRAY(SELECT e.id::text FROM (${expiredOrdersOf('ARRAY[c.id]', '$3')}) e) AS expired
  FROM u LEFT JOIN prepaid_cards c ON c.id = u.card_id LEFT JOIN orders o ON o.order_number = u.order_number
  WHERE (SELECT count(*) FROM locked) >= 0
  ORDER BY u.n`;

/** A use as its first statement finds it: its card (a UUID), its order's number and the organisation using it. */
export type UseKey = { cardId: string; orderNumber: string; organizationId: string };

/**
 * The first statement of a transaction of uses: for each, cardKeyOf of the card, the id and organisation of the
 * order of the number, and expiredCardOrders of the card (none for a card no one has); and each order's row
 * locked (as lockOrder locks it) when it is its use's organisation's. No two uses may name one order. What it
 * reads of an order is read before its lock: a use reads the order again after it (ordersAndCardsForUse).
 */
export async function useTargetsOf(tx: SqlQueries, uses: readonly UseKey[], now: Date): Promise<UseTargets[]> {
  const rows = await tx.rows<{
    cardId: string | null;
    identifierHash: string | null;
    cardOrganizationId: string | null;
    orderId: string | null;
    orderOrganizationId: string | null;
    expired: string[];
  }>(USE_TARGETS, [uses.map((use) => use.cardId), uses.map((use) => use.orderNumber), now, uses.map((use) => use.organizationId)]);
  return rows.map(({ cardId: id, identifierHash, cardOrganizationId, orderId, orderOrganizationId, expired }) => ({
    card: id === null ? null : { id, identifierHash: identifierHash!, organizationId: cardOrganizationId! },
    order: orderId === null ? null : { id: orderId, organizationId: orderOrganizationId! },
    expired,
  }));
}
