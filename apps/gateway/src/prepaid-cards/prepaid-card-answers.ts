import { z } from 'zod';
import { order } from '../orders/order-answers.js';
import { exampleOf, isoTime, minorUnits, named, pageOf } from '../routes/answer-schema.js';

/**
 * What the prepaid card routes answer (decision 0017). Anyone may read a card's status and balance;
 * staff and the holder see its holder and ledger, and the identifier only when they may have it (who
 * issued, bought or re-keyed the card; the holder's wallet). The user a card is held by is never answered.
 */

const CARD_ID = '9f4c2a7e-1b3d-4e8f-a6c5-2d7b9e0f4a13';
const ORDER_NUMBER = '7Q2M9K4X1C';

const status = z
  .enum(['pending', 'active', 'empty', 'void'])
  .describe(
    'pending: its order is not paid yet; active; empty: balance 0 (a restored use makes it active again); void: its order expired or was cancelled unpaid',
  );

const publicFields = {
  id: z.uuid(),
  merchant_handle: z.string().describe('The shop whose card it is: it pays only there'),
  currency: z.string(),
  status,
  balance_minor: minorUnits,
  identifier_last4: z.string().describe('The last 4 characters of the identifier'),
};

const PUBLIC_EXAMPLE = {
  id: CARD_ID,
  merchant_handle: 'blue-bottle-cafe',
  currency: 'USD',
  status: 'active' as const,
  balance_minor: 1850,
  identifier_last4: 'W8ZD',
};

export const publicPrepaidCard = named('PublicPrepaidCard', z.object(publicFields), PUBLIC_EXAMPLE);
export type PublicPrepaidCardAnswer = z.infer<typeof publicPrepaidCard>;

export const prepaidActivity = named(
  'PrepaidCardActivity',
  z.object({
    sequence: z.number().int().describe('1, 2, 3... per card'),
    kind: z
      .enum(['issue', 'redeem', 'restore', 'transfer'])
      .describe(
        'issue: the selling order was paid; redeem: a use on an order; restore: that order expired or was cancelled, the value is back; transfer: a new holder and identifier',
      ),
    amount_minor: minorUnits.describe('Signed: positive adds to the balance'),
    balance_after_minor: minorUnits,
    order_number: z.string().nullable(),
    occurred_at: isoTime,
  }),
  {
    sequence: 2,
    kind: 'redeem',
    amount_minor: -650,
    balance_after_minor: 1850,
    order_number: ORDER_NUMBER,
    occurred_at: '2026-03-02T09:41:00.000Z',
  },
);

export const prepaidCard = named(
  'PrepaidCard',
  z.object({
    ...publicFields,
    initial_minor: minorUnits.describe('The value it was sold for'),
    identifier: z
      .string()
      .nullable()
      .describe('The identifier in full: to whoever issues, buys or re-keys the card (answered once) and to its holder; null otherwise'),
    order_number: z.string().describe('The order that sells the card: paid, the card is active'),
    created_at: isoTime,
    activated_at: isoTime.nullable(),
    holder: z
      .object({ address: z.string().nullable(), public_key: z.string().nullable() })
      .describe('The holder’s address and public key, if any (the user holding it is never shown)'),
    activities: z.array(prepaidActivity).describe('The card’s ledger, oldest first (its latest 100 entries)'),
  }),
  {
    ...PUBLIC_EXAMPLE,
    initial_minor: 2500,
    identifier: '7K3M-9QX2-HC4T-W8ZD',
    order_number: 'H3D8K2M9PQ',
    created_at: '2026-03-01T17:02:00.000Z',
    activated_at: '2026-03-01T17:04:12.000Z',
    holder: { address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', public_key: null },
    activities: [
      {
        sequence: 1,
        kind: 'issue',
        amount_minor: 2500,
        balance_after_minor: 2500,
        order_number: 'H3D8K2M9PQ',
        occurred_at: '2026-03-01T17:04:12.000Z',
      },
      exampleOf(prepaidActivity),
    ],
  },
);
export type PrepaidCardAnswer = z.infer<typeof prepaidCard>;
export const prepaidCardPage = pageOf('PrepaidCard', prepaidCard);

export const issuedPrepaidCard = named(
  'IssuedPrepaidCard',
  z.object({ card: prepaidCard, order: order.describe('The order that sells the card: pay it and the card is active') }),
  {
    card: { ...exampleOf(prepaidCard), status: 'pending', balance_minor: 0, activated_at: null, activities: [] },
    order: { ...exampleOf(order), order_number: 'H3D8K2M9PQ' },
  },
);

export const prepaidCardUse = named(
  'PrepaidCardUse',
  z.object({
    card: prepaidCard,
    order: order.describe('The order after the use: its satoshis due are for the rest; paid when the card covered it'),
    activity: prepaidActivity.describe('The use, as the card’s ledger records it'),
  }),
  {
    card: { ...exampleOf(prepaidCard), identifier: null },
    order: { ...exampleOf(order), card_paid_minor: 650 },
    activity: exampleOf(prepaidActivity),
  },
);
