import { randomUUID } from 'node:crypto';
import { AppError, type CursorPosition, type SqlQueries } from '@ctk/shared';
import type { LoyaltyCard, LoyaltyCardActivity, LoyaltyProgram, Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { LoyaltyCard };
/** A ledger row with the number of the order it stamped (none for redeem and transfer). */
export type LoyaltyActivity = LoyaltyCardActivity & { order: { orderNumber: string } | null };
export type NewLoyaltyCard = Pick<
  LoyaltyCard,
  | 'id'
  | 'organizationId'
  | 'merchantHandle'
  | 'identifierHash'
  | 'identifierSealed'
  | 'identifierLast4'
  | 'holderAddress'
  | 'holderPublicKey'
  | 'holderUserId'
  | 'createdAt'
>;
export type NewStamp = { cardId: string; stamps: number; orderId: string; receipt: { txid: string; vout: number } | null; at: Date };

type Db = PrismaClient | Prisma.TransactionClient;

const WITH_ORDER_NUMBER = { order: { select: { orderNumber: true } } } as const;
/** A wallet shows this many of a card's latest activities. */
export const LEDGER_LIMIT = 100;

export function insertLoyaltyCard(prisma: PrismaClient, card: NewLoyaltyCard): Promise<LoyaltyCard> {
  return prisma.loyaltyCard.create({ data: card });
}

export function loyaltyCardById(db: Db, id: string): Promise<LoyaltyCard | null> {
  return db.loyaltyCard.findUnique({ where: { id } });
}

export function loyaltyCardByIdentifier(db: Db, identifierHash: string): Promise<LoyaltyCard | null> {
  return db.loyaltyCard.findUnique({ where: { identifierHash } });
}

/** The organisation's card already held by this user or this address, if any (one card per holder and shop). */
export function loyaltyCardHeldBy(
  db: Db,
  organizationId: string,
  holder: { userId: string | null; address: string | null },
): Promise<LoyaltyCard | null> {
  const either = [
    ...(holder.userId ? [{ holderUserId: holder.userId }] : []),
    ...(holder.address ? [{ holderAddress: holder.address }] : []),
  ];
  if (either.length === 0) return Promise.resolve(null);
  return db.loyaltyCard.findFirst({ where: { organizationId, OR: either } });
}

/** The cards held by each (organisation, holder address), newest first: one query for them all (at most one each). */
export function loyaltyCardsHeldAtAddresses(
  db: Db,
  holders: readonly { organizationId: string; address: string }[],
): Promise<LoyaltyCard[]> {
  if (holders.length === 0) return Promise.resolve([]);
  return db.loyaltyCard.findMany({
    where: { OR: holders.map((holder) => ({ organizationId: holder.organizationId, holderAddress: holder.address })) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** The user's cards at every organisation, newest first, ties broken by id, after `after` when given. */
export function loyaltyCardsHeldByUser(prisma: PrismaClient, userId: string, take: number, after?: CursorPosition): Promise<LoyaltyCard[]> {
  const afterWhere = after && { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] };
  return prisma.loyaltyCard.findMany({
    where: { holderUserId: userId, ...afterWhere },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

/** The latest `LEDGER_LIMIT` activities of each card, oldest first. */
export async function ledgersOf(prisma: PrismaClient, cardIds: readonly string[]): Promise<Map<string, LoyaltyActivity[]>> {
  const ledgers = new Map<string, LoyaltyActivity[]>();
  for (const cardId of cardIds) {
    const latest = await prisma.loyaltyCardActivity.findMany({
      where: { cardId },
      orderBy: { sequence: 'desc' },
      take: LEDGER_LIMIT,
      include: WITH_ORDER_NUMBER,
    });
    ledgers.set(cardId, latest.reverse());
  }
  return ledgers;
}

/** The stamp an order gave, if it gave one. */
export function stampOfOrder(db: Db, orderId: string): Promise<LoyaltyCardActivity | null> {
  return db.loyaltyCardActivity.findUnique({ where: { orderId } });
}

/** The stamp a transaction's receipt output backs, with its card and order. */
export function stampOfReceipt(prisma: PrismaClient, txid: string) {
  return prisma.loyaltyCardActivity.findUnique({ where: { receiptTxid: txid }, include: { card: true, order: true } });
}

/**
 * Adds stamps to the card and writes the ledger row, inside the caller's transaction. The card's UPDATE
 * locks its row until the transaction ends and takes the next sequence in the same statement, so that
 * concurrent changes of one card are numbered one after another; the order id is unique in the ledger.
 */
export async function appendStamp(tx: SqlQueries, stamp: NewStamp): Promise<LoyaltyActivity> {
  const args = [
    stamp.cardId,
    stamp.stamps,
    randomUUID(),
    stamp.orderId,
    stamp.receipt?.txid ?? null,
    stamp.receipt?.vout ?? null,
    stamp.at,
  ];
  const [row] = await tx.rows<LoyaltyCardActivity & { stampedOrderNumber: string }>(APPEND_STAMP, args);
  if (!row) throw new AppError('not_found', 'The loyalty card is gone');
  const { stampedOrderNumber, ...activity } = row;
  return { ...activity, order: { orderNumber: stampedOrderNumber } };
}

/** $1 card, $2 stamps, $3 activity id, $4 order, $5 and $6 receipt output, $7 when: one statement (decision 0048). */
const APPEND_STAMP = `WITH card AS (
    UPDATE loyalty_cards SET stamps = stamps + $2::int, activity_count = activity_count + 1 WHERE id = $1::uuid
    RETURNING id, stamps, activity_count)
  INSERT INTO loyalty_card_activities (id, card_id, sequence, kind, stamps, stamps_after, order_id, receipt_txid, receipt_vout, occurred_at)
  SELECT $3::uuid, id, activity_count, 'stamp', $2::int, stamps, $4::uuid, $5::text, $6::int, $7::timestamp(3) FROM card
  RETURNING *, (SELECT order_number FROM orders WHERE id = $4::uuid) AS stamped_order_number`;

/**
 * What stamping a paid order checks, in one statement: the organisation's program (null without one), the
 * card's stamps and organisation (null without the card), and whether the order stamped a card already.
 */
export async function stampingOf(
  tx: SqlQueries,
  order: { id: string; organizationId: string; loyaltyCardId: string },
): Promise<{
  program: Pick<LoyaltyProgram, 'active' | 'stampRule' | 'amountPerStampMinor'>;
  card: Pick<LoyaltyCard, 'stamps' | 'organizationId'> | null;
  stamped: boolean;
} | null> {
  const [row] = await tx.rows<{
    active: boolean;
    stampRule: string;
    amountPerStampMinor: bigint;
    cardStamps: number | null;
    cardOrganizationId: string | null;
    stamped: boolean;
  }>(STAMPING, [order.organizationId, order.loyaltyCardId, order.id]);
  if (!row) return null;
  const { cardStamps, cardOrganizationId, stamped, ...program } = row;
  const card = cardStamps === null || cardOrganizationId === null ? null : { stamps: cardStamps, organizationId: cardOrganizationId };
  return { program, card, stamped };
}

const STAMPING = `SELECT p.active, p.stamp_rule, p.amount_per_stamp_minor, c.stamps AS card_stamps,
    c.organization_id AS card_organization_id, EXISTS (SELECT 1 FROM loyalty_card_activities a WHERE a.order_id = $3::uuid) AS stamped
  FROM loyalty_programs p LEFT JOIN loyalty_cards c ON c.id = $2::uuid WHERE p.organization_id = $1::uuid`;

export type StampsToTake = { cardId: string; organizationId: string; identifierHash: string; stamps: number; at: Date };

/**
 * Takes `stamps` from the card with one conditional update (`... WHERE stamps >= n`), matched by id,
 * organisation and identifier, and writes the `redeem` row of its ledger, inside the caller's transaction.
 * Of concurrent redemptions only those the stamps cover update the row (each waits for the one before and
 * sees its stamps); the others match nothing and are answered the card as it stands, with no activity.
 */
export async function takeStampsIn(
  tx: Prisma.TransactionClient,
  take: StampsToTake,
): Promise<{ card: LoyaltyCard; activity: LoyaltyActivity | null }> {
  const taken = await tx.$executeRaw`
    UPDATE loyalty_cards
    SET stamps = stamps - ${take.stamps}, rewards_redeemed = rewards_redeemed + 1, activity_count = activity_count + 1
    WHERE id = ${take.cardId}::uuid AND organization_id = ${take.organizationId}::uuid
      AND identifier_hash = ${take.identifierHash} AND stamps >= ${take.stamps}`;
  const card = await tx.loyaltyCard.findUniqueOrThrow({ where: { id: take.cardId } });
  if (taken === 0) return { card, activity: null };
  const activity = await tx.loyaltyCardActivity.create({
    data: {
      id: randomUUID(),
      cardId: card.id,
      sequence: card.activityCount,
      kind: 'redeem',
      stamps: -take.stamps,
      stampsAfter: card.stamps,
      occurredAt: take.at,
    },
    include: WITH_ORDER_NUMBER,
  });
  return { card, activity };
}

/** takeStampsIn in a transaction of its own: null when the stamps did not cover it. */
export async function takeStamps(
  prisma: PrismaClient,
  take: StampsToTake,
): Promise<{ card: LoyaltyCard; activity: LoyaltyActivity } | null> {
  return prisma.$transaction(
    async (tx) => {
      const { card, activity } = await takeStampsIn(tx, take);
      return activity ? { card, activity } : null;
    },
    // Redemptions of one card wait for each other's row lock: give them longer than Prisma's 2 s to start.
    { maxWait: 20_000, timeout: 20_000 },
  );
}

/**
 * Gives `stamps` back to the card (a reward order cancelled) and writes the `restore` row, inside the
 * caller's transaction; the reward no longer counts as redeemed. Nothing when the card is gone.
 */
export async function restoreStamps(tx: Prisma.TransactionClient, restore: { cardId: string; stamps: number; at: Date }): Promise<void> {
  const [card] = await tx.$queryRaw<{ stamps: number; activity_count: number }[]>`
    UPDATE loyalty_cards
    SET stamps = stamps + ${restore.stamps}, rewards_redeemed = GREATEST(rewards_redeemed - 1, 0), activity_count = activity_count + 1
    WHERE id = ${restore.cardId}::uuid
    RETURNING stamps, activity_count`;
  if (!card) return;
  await tx.loyaltyCardActivity.create({
    data: {
      id: randomUUID(),
      cardId: restore.cardId,
      sequence: Number(card.activity_count),
      kind: 'restore',
      stamps: restore.stamps,
      stampsAfter: Number(card.stamps),
      occurredAt: restore.at,
    },
  });
}

/**
 * Gives the card a new identifier (and, when `holder` is given, a new holder) and writes a `transfer`
 * row, in one transaction with the card's row locked by its UPDATE.
 */
export async function rekeyCard(
  prisma: PrismaClient,
  change: {
    cardId: string;
    identifier: Pick<LoyaltyCard, 'identifierHash' | 'identifierSealed' | 'identifierLast4'>;
    holder: Pick<LoyaltyCard, 'holderAddress' | 'holderPublicKey' | 'holderUserId'> | null;
    at: Date;
  },
): Promise<LoyaltyCard> {
  return prisma.$transaction(async (tx) => {
    const card = await tx.loyaltyCard.update({
      where: { id: change.cardId },
      data: { ...change.identifier, ...(change.holder ?? {}), activityCount: { increment: 1 } },
    });
    await tx.loyaltyCardActivity.create({
      data: {
        id: randomUUID(),
        cardId: card.id,
        sequence: card.activityCount,
        kind: 'transfer',
        stamps: 0,
        stampsAfter: card.stamps,
        occurredAt: change.at,
      },
    });
    return card;
  });
}
