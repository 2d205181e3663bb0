import type { CardHolder } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError, prismaQueries, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { readCardHolder } from '../cards/card-holder.js';
import { newCardIdentifier, sealIdentifier } from '../cards/card-identifier.js';
import { appendActivity, cardById, lockCard, rekeyCard, type PrepaidCardRow } from '../data/prepaid-card-repository.js';
import { orgCardOfId } from './prepaid-card-rules.js';

/**
 * Staff pass a card on (a gift handed over, a card lost; decision 0017): a new holder (an address or public
 * key; no user: the one who held it no longer sees it in their wallet) and a new identifier, answered this
 * once: the old identifier stops working. The balance stays; activity `transfer` (amount 0). A void card
 * has nothing to pass on.
 */
export async function transferPrepaidCard(
  cards: CardContext,
  org: Org,
  input: { id: string; to?: CardHolder | undefined },
): Promise<{ card: PrepaidCardRow; identifier: string }> {
  const holder = readCardHolder(input.to && { ...input.to, userId: '' }, cards.network, 'to');
  if (!holder.address) {
    throw new AppError('validation_failed', 'to needs the new holder: an address or a public_key', { field: 'to.address' });
  }
  const known = await orgCardOfId(cards, org, input.id);
  const identifier = newCardIdentifier();
  const sealed = sealIdentifier(await cards.cardKey(), known.id, identifier.identifier);
  await cards.orders.prisma.$transaction(async (tx) => {
    const card = (await lockCard(prismaQueries(tx), known.id))!;
    if (card.status === 'void') throw new AppError('card_not_active', 'The card is void: it was never paid for', { status: card.status });
    const now = cards.orders.now();
    const sequence = await rekeyCard(tx, card.id, { hash: identifier.hash, sealed, last4: identifier.last4 }, holder, now);
    await appendActivity(prismaQueries(tx), {
      cardId: card.id,
      sequence,
      kind: 'transfer',
      amountMinor: 0n,
      balanceAfterMinor: card.balanceMinor,
      orderId: null,
      occurredAt: now,
    });
  });
  return { card: (await cardById(cards.orders.sql, known.id, true))!, identifier: identifier.identifier };
}
