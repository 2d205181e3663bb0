import { randomUUID } from 'node:crypto';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { CardHolder } from '@ctk/proto/ctk/pos/v1/cards';
import { type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { readCardHolder } from '../cards/card-holder.js';
import { newCardIdentifier, sealIdentifier } from '../cards/card-identifier.js';
import type { OrderWithParts } from '../data/order-repository.js';
import { cardById, insertCard, type PrepaidCardRow } from '../data/prepaid-card-repository.js';
import { createOrder } from '../domain/create-order.js';
import { cardCurrency } from './card-currency.js';
import { GIFT_CARD_LINE, MAX_CARD_VALUE } from './prepaid-card-rules.js';

const issueSchema = z.object({
  amountMinor: z
    .bigint()
    .min(1n, 'amount_minor must be at least 1 (minor units of the currency)')
    .max(MAX_CARD_VALUE, `amount_minor must be at most ${MAX_CARD_VALUE}`),
  currency: z.union([z.literal(''), z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as USD')]),
  publicUrl: z.string(),
  createdBy: z.string().max(200),
  staff: z.boolean().default(false),
  clientAddress: z.string().max(100).default(''),
});

export type IssueInput = z.input<typeof issueSchema> & { holder?: CardHolder | undefined };
export type IssuedCard = { card: PrepaidCardRow; identifier: string; order: OrderWithParts };

/**
 * A pending prepaid card and the order that sells it (decision 0017): one untaxed "Gift card" line at the
 * card's value, no tip, no discount, priced and paid as every order is. The card is active when that order
 * is paid. The identifier is made here, kept only as its hash and sealed, and answered this once.
 * Staff issue cards; a customer buying one issues it for themselves (holder.user_id) or as a gift.
 */
export async function issuePrepaidCard(cards: CardContext, orgRef: Partial<OrgRef>, org: Org, input: IssueInput): Promise<IssuedCard> {
  const request = validate(issueSchema, input);
  const holder = readCardHolder(input.holder, cards.network, 'holder');
  const currency = request.currency || (await cardCurrency(cards.orders, org));
  const id = randomUUID();
  const identifier = newCardIdentifier();
  const sealed = sealIdentifier(await cards.cardKey(), id, identifier.identifier);
  const order = await createOrder(
    cards.orders,
    orgRef,
    org,
    {
      lines: [{ itemId: '', quantity: 1n, modifiers: [], name: GIFT_CARD_LINE, unitPriceMinor: request.amountMinor }],
      discountBasisPoints: 0,
      discountMinor: 0n,
      tipBasisPoints: 0,
      tipMinor: 0n,
      currency,
      publicUrl: request.publicUrl,
      createdBy: request.createdBy,
      note: '',
      staff: request.staff,
      clientAddress: request.clientAddress,
    },
    {
      prepaidCardId: id,
      guard: (tx) =>
        insertCard(tx, {
          id,
          organizationId: org.id,
          merchantHandle: org.handle,
          currency,
          initialMinor: request.amountMinor,
          identifierHash: identifier.hash,
          identifierSealed: Uint8Array.from(sealed),
          identifierLast4: identifier.last4,
          holderAddress: holder.address,
          holderPublicKey: holder.publicKey,
          holderUserId: holder.userId,
          createdBy: request.createdBy,
          createdAt: cards.orders.now(),
          updatedAt: cards.orders.now(),
        }),
    },
  );
  return { card: (await cardById(cards.orders.sql, id, true))!, identifier: identifier.identifier, order };
}
