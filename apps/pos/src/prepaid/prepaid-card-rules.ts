import { timingSafeEqual } from 'node:crypto';
import { AppError, type Org } from '@ctk/shared';
import { z } from 'zod';
import { cardById, cardKeyOf, type PrepaidCardRow } from '../data/prepaid-card-repository.js';
import type { CardContext } from '../cards/card-context.js';

/** The most a card may be sold for, in minor units (a million dollars, as the contract says). */
export const MAX_CARD_VALUE = 100_000_000n;

/** The name of the selling order's one line (decision 0017). */
export const GIFT_CARD_LINE = 'Gift card';

const cardId = z.uuid();

/** Not found, whatever the reason: an unknown id, another organisation's card, an identifier that is not the card's. */
export function noSuchCard(): AppError {
  return new AppError('not_found', 'No such prepaid card');
}

/** The card of an id, read by anyone: not_found for an id no card has (or that is no id). */
export async function cardOfId(cards: CardContext, id: string, activities = false): Promise<PrepaidCardRow> {
  const card = isCardId(id) ? await cardById(cards.orders.sql, id, activities) : null;
  if (!card) throw noSuchCard();
  return card;
}

/**
 * The organisation's card of an id (what a change needs to find it: its id and identifier hash): another
 * organisation's card is not found, as if it did not exist.
 */
export async function orgCardOfId(cards: CardContext, org: Org, id: string): Promise<{ id: string; identifierHash: string }> {
  return orgCard(org, isCardId(id) ? await cardKeyOf(cards.orders.sql, id) : null);
}

/** Whether `id` can be a card's (a UUID): anything else is no card, without asking the database. */
export function isCardId(id: string): boolean {
  return cardId.safeParse(id).success;
}

/** The card found, if it is the organisation's: another organisation's card is not found, as if it did not exist. */
export function orgCard<T extends { organizationId: string }>(org: Org, card: T | null): T {
  if (!card || card.organizationId !== org.id) throw noSuchCard();
  return card;
}

/** The id of the order found of a number, if it is the organisation's: another organisation's order is not found, as if it did not exist. */
export function orgOrder(org: Org, orderNumber: string, order: { id: string; organizationId: string } | null): string {
  if (!order || order.organizationId !== org.id) throw new AppError('not_found', `No order ${orderNumber} in ${org.handle}`);
  return order.id;
}

/** Whether a presented identifier's hash is the card's, compared in constant time. */
export function isCardsIdentifier(card: Pick<PrepaidCardRow, 'identifierHash'>, presentedHash: string): boolean {
  const expected = Buffer.from(card.identifierHash, 'hex');
  const presented = Buffer.from(presentedHash, 'hex');
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}
