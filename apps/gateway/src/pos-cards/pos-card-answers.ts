import { z } from 'zod';
import { publicLoyaltyCard } from '../loyalty-cards/loyalty-card-answers.js';
import { publicPrepaidCard } from '../prepaid-cards/prepaid-card-answers.js';
import { isoTime, named, pageOf } from '../routes/answer-schema.js';

/**
 * What the POS card routes answer (docs/decisions/0017-customer-cards.md, "POS cards"): the customer's card
 * at a shop. The shop's staff see it with the prepaid and loyalty cards its address holds there, each as its
 * public lookup shows it, and its label; anyone else sees the card alone, never what it holds (decision 0024:
 * balances and stamps need the card's identifier). No answer carries the organisation id, and no held card
 * its identifier.
 */

const CARD_ID = '05c1ea99-67a7-403b-865d-5bca51e05e7b';
const ADDRESS = '1GDJbB9BGhqSo8tUdsyCWKscuRi4ZodNzE';
const PUBLIC_KEY = '0252ccc06864bf7116135b20823222ed23590fa7ec6e6180ca16c3c8229a18a893';

const publicFields = {
  id: z.uuid(),
  shop_id: z.string().describe("The shop: its organisation's handle"),
  address: z.string().describe("The customer's P2PKH address"),
  public_key: z.string().nullable().describe('The compressed public key the address was given as; null when it was given as an address'),
  created_at: isoTime,
};

const heldFields = {
  prepaid_cards: z
    .array(publicPrepaidCard)
    .describe(
      'The prepaid and gift cards the address holds at the shop, newest first (void ones left out), as their public lookup shows them',
    ),
  loyalty_cards: z
    .array(publicLoyaltyCard)
    .describe('The loyalty card the address holds at the shop, if any, as its public lookup shows it'),
};

const PUBLIC_EXAMPLE = {
  id: CARD_ID,
  shop_id: 'blue-bottle-cafe',
  address: ADDRESS,
  public_key: PUBLIC_KEY,
  created_at: '2026-03-14T08:12:00.000Z',
};

const HELD_EXAMPLE = {
  prepaid_cards: [
    {
      id: '8760293f-2acb-41d2-bb24-2327f6a33e76',
      merchant_handle: 'blue-bottle-cafe',
      currency: 'USD',
      status: 'active' as const,
      balance_minor: 2_150,
      identifier_last4: '7Q2M',
    },
  ],
  loyalty_cards: [
    {
      id: 'da279546-38e8-4f15-8601-3678ec634da7',
      merchant_handle: 'blue-bottle-cafe',
      status: 'active' as const,
      stamps: 7,
      stamps_for_reward: 10,
      rewards_available: 0,
      reward: 'A free coffee',
      identifier_last4: 'K4X1',
    },
  ],
};

const EXAMPLE = { ...PUBLIC_EXAMPLE, ...HELD_EXAMPLE };

export const publicPosCard = named('PublicPosCard', z.object(publicFields), PUBLIC_EXAMPLE);
export type PublicPosCardAnswer = z.infer<typeof publicPosCard>;

const staffFields = { ...publicFields, ...heldFields, label: z.string().describe('What staff call the customer; staff only') };

export const posCard = named('PosCard', z.object(staffFields), { ...EXAMPLE, label: 'Sam, oat flat white' });
export type PosCardAnswer = z.infer<typeof posCard>;
export const posCardPage = pageOf('PosCard', posCard);

export const createdPosCard = named(
  'CreatedPosCard',
  z.object({ ...staffFields, created: z.boolean().describe('false: the address already had a card at the shop, and this is it (200)') }),
  { ...EXAMPLE, label: 'Sam, oat flat white', created: true },
);

export const posCardsOfAddress = named(
  'PosCardsOfAddress',
  z.object({ data: z.array(publicPosCard).describe('One card per shop the address has a card at, newest first (at most 100)') }),
  { data: [PUBLIC_EXAMPLE] },
);

export const shopAddressCards = named(
  'ShopAddressCards',
  z.object({
    shop_id: z.string().describe("The shop: its organisation's handle"),
    address: z.string().describe('The address asked for (a public key given is answered as its address)'),
    pos_card: posCard.nullable().describe('The POS card of the address at the shop; null until staff make one'),
    ...heldFields,
  }),
  { shop_id: 'blue-bottle-cafe', address: ADDRESS, pos_card: null, ...HELD_EXAMPLE },
);
export type ShopAddressCardsAnswer = z.infer<typeof shopAddressCards>;
