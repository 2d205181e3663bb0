import { z } from 'zod';
import { isoTime, minorUnits, named, pageOf } from '../routes/answer-schema.js';

/**
 * What the loyalty routes answer (decision 0017, "Loyalty"). Public reads show the card's standing and
 * nothing else; staff also see its holder (address or public key) and history counts; the identifier in
 * full goes only to whoever issues or re-keys the card and to its holder; the holder's user id to no one.
 */

const CARD_ID = '9f2c4e1a-7b3d-4c8e-a5f6-0d1e2b3c4a5f';
const IDENTIFIER = '7K3M-Q9TX-2HDR-V4PN';
const TXID = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b';

export const loyaltyProgram = named(
  'LoyaltyProgram',
  z.object({
    stamp_rule: z.enum(['visit', 'amount']),
    amount_per_stamp_minor: minorUnits.describe('For "amount": the minor units that earn one stamp; 0 for "visit"'),
    stamps_for_reward: z.number().int(),
    reward: z.string(),
    reward_value_minor: minorUnits.describe('What the reward takes off an order that redeems it, before tax; 0: no value set'),
    active: z.boolean(),
    version: z.number().int().describe('The number of saves'),
    updated_at: isoTime,
  }),
  {
    stamp_rule: 'visit',
    amount_per_stamp_minor: 0,
    stamps_for_reward: 8,
    reward: 'A free coffee of your choice',
    reward_value_minor: 575,
    active: true,
    version: 3,
    updated_at: '2026-03-14T09:12:00.000Z',
  },
);

const publicFields = {
  id: z.uuid(),
  merchant_handle: z.string(),
  status: z.enum(['active']),
  stamps: z.number().int().describe('Stamps toward the next reward(s)'),
  stamps_for_reward: z.number().int(),
  rewards_available: z.number().int().describe('How many rewards the stamps pay for now'),
  reward: z.string(),
  identifier_last4: z.string().describe('The last 4 characters of the identifier'),
};
const PUBLIC_EXAMPLE = {
  id: CARD_ID,
  merchant_handle: 'blue-bottle-cafe',
  status: 'active' as const,
  stamps: 9,
  stamps_for_reward: 8,
  rewards_available: 1,
  reward: 'A free coffee of your choice',
  identifier_last4: 'V4PN',
};

export const publicLoyaltyCard = named('PublicLoyaltyCard', z.object(publicFields), PUBLIC_EXAMPLE);

const staffFields = {
  ...publicFields,
  rewards_redeemed: z.number().int(),
  holder: z
    .object({ address: z.string().nullable(), public_key: z.string().nullable() })
    .describe("The customer's address (and the public key it came from); both null for a card held by its identifier alone"),
  created_at: isoTime,
};
const STAFF_EXAMPLE = {
  ...PUBLIC_EXAMPLE,
  rewards_redeemed: 2,
  holder: { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', public_key: null },
  created_at: '2026-01-08T08:30:00.000Z',
};

export const loyaltyCard = named('LoyaltyCard', z.object(staffFields), STAFF_EXAMPLE);

const identifierField = z.string().describe('The identifier in full, XXXX-XXXX-XXXX-XXXX: the card’s bearer secret, answered here only');

export const issuedLoyaltyCard = named('IssuedLoyaltyCard', z.object({ ...staffFields, identifier: identifierField }), {
  ...STAFF_EXAMPLE,
  stamps: 0,
  rewards_available: 0,
  rewards_redeemed: 0,
  identifier: IDENTIFIER,
});

const ACTIVITY_EXAMPLE = {
  sequence: 12,
  kind: 'stamp' as const,
  stamps: 1,
  stamps_after: 9,
  order_number: '7Q2M9K4X1C',
  receipt: { txid: TXID, vout: 1 },
  occurred_at: '2026-03-14T16:05:00.000Z',
};

export const loyaltyActivity = named(
  'LoyaltyActivity',
  z.object({
    sequence: z.number().int().describe('1, 2, 3... per card'),
    kind: z.enum(['stamp', 'redeem', 'transfer']),
    stamps: z.number().int().describe('Signed change in stamps'),
    stamps_after: z.number().int(),
    order_number: z.string().nullable().describe('The stamped order; null for a redemption or a transfer'),
    receipt: z
      .object({ txid: z.string(), vout: z.number().int() })
      .nullable()
      .describe('The receipt output of the transaction that paid the stamped order: verify it at /api/pos/loyalty-stamps/{txid}'),
    occurred_at: isoTime,
  }),
  ACTIVITY_EXAMPLE,
);

export const heldLoyaltyCard = named(
  'HeldLoyaltyCard',
  z.object({
    ...staffFields,
    identifier: identifierField
      .nullable()
      .describe('The identifier in full (null only if it can no longer be opened: ask the shop to re-key)'),
    activities: z.array(loyaltyActivity).describe("The card's latest 100 activities, oldest first"),
  }),
  { ...STAFF_EXAMPLE, identifier: IDENTIFIER, activities: [ACTIVITY_EXAMPLE] },
);
export const heldLoyaltyCardPage = pageOf('HeldLoyaltyCard', heldLoyaltyCard);

export const loyaltyCardChange = named('LoyaltyCardChange', z.object({ card: loyaltyCard, activity: loyaltyActivity }), {
  card: STAFF_EXAMPLE,
  activity: ACTIVITY_EXAMPLE,
});

export const loyaltyStampVerification = named(
  'LoyaltyStampVerification',
  z.object({
    card_id: z.uuid(),
    merchant_handle: z.string(),
    order_number: z.string(),
    stamp: loyaltyActivity,
    verified: z
      .boolean()
      .describe('True when the transaction is mined with a valid merkle path and its receipt names this merchant and the stamped order'),
    receipt_merchant: z.string().nullable(),
    receipt_reference: z.string().nullable(),
    block_height: z.number().int().nullable(),
    problem: z.string().nullable().describe('Why it did not verify; null when it did'),
  }),
  {
    card_id: CARD_ID,
    merchant_handle: 'blue-bottle-cafe',
    order_number: '7Q2M9K4X1C',
    stamp: ACTIVITY_EXAMPLE,
    verified: true,
    receipt_merchant: 'blue-bottle-cafe@pay.example.com',
    receipt_reference: '7Q2M9K4X1C',
    block_height: 881_234,
    problem: null,
  },
);

export type LoyaltyProgramAnswer = z.infer<typeof loyaltyProgram>;
export type PublicLoyaltyCardAnswer = z.infer<typeof publicLoyaltyCard>;
export type LoyaltyCardAnswer = z.infer<typeof loyaltyCard>;
export type IssuedLoyaltyCardAnswer = z.infer<typeof issuedLoyaltyCard>;
export type HeldLoyaltyCardAnswer = z.infer<typeof heldLoyaltyCard>;
export type LoyaltyActivityAnswer = z.infer<typeof loyaltyActivity>;
export type LoyaltyStampVerificationAnswer = z.infer<typeof loyaltyStampVerification>;
