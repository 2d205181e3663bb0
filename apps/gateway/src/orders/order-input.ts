import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/** Only the shape of an order request: pos prices it and owns its rules (limits, items, modifiers, currency). */

export const orderParams = z.object({
  order_number: z
    .string()
    .regex(/^[0-9A-Za-z]{10}$/, 'must be a 10-character order number such as 7Q2M9K4X1C')
    .describe('The order number (Crockford base32)'),
});

const minor = z.number().int().min(0).describe('Minor units of the order currency');

const orderLine = z
  .object({
    item_id: z.string().max(100).optional().describe('A menu item; absent for a keypad line'),
    quantity: z.number().int().min(1).max(10_000).default(1),
    modifiers: z
      .array(z.object({ modifier_id: z.string().max(100) }).strict())
      .max(20)
      .optional()
      .describe("The item's modifiers chosen, by id"),
    name: z.string().max(200).optional().describe('A keypad line: its name (default "Custom amount")'),
    unit_price_minor: minor.optional().describe('A keypad line: its unit price in minor units'),
    chosen_price_minor: minor.optional().describe('For a "minimum" or "top_up" item: the amount the payer chose'),
  })
  .strict();

export const newOrder = z
  .object({
    org_handle: handleField.describe('The organisation the order is for'),
    lines: z.array(orderLine).min(1).max(100),
    discount_basis_points: z.number().int().min(0).max(10_000).optional().describe('A discount in basis points (1000 = 10%)'),
    discount_minor: minor.optional().describe('Or a discount amount'),
    tip_basis_points: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .describe('A tip in basis points of the amount after discount and before tax, rounded half up; the tip is not taxed'),
    tip_minor: minor.optional().describe('Or a tip amount'),
    currency: z.string().max(3).optional().describe('ISO 4217; absent: the items’ currency'),
    note: z.string().max(500).optional().describe('For the merchant’s records and the receipt, e.g. a table number'),
    loyalty_card_id: z
      .uuid('must be a loyalty card id (a UUID)')
      .optional()
      .describe('A loyalty card of the organisation: paid, the order stamps it'),
    redeem_reward_identifier: z
      .string()
      .max(200)
      .optional()
      .describe(
        "The identifier of that loyalty card, as the customer presents it: the order redeems one reward, a discount worth the program's reward_value_minor",
      ),
  })
  .strict();

export const confirmOrderBody = z
  .object({
    org_handle: handleField,
    txid: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
      .describe('The transaction that paid the order'),
  })
  .strict();

export const cancelOrderBody = z.object({ org_handle: handleField }).strict();

export const qrQuery = z.object({ format: z.enum(['svg', 'png']).default('svg') }).strict();

/** BIP270's Payment, in its own field names. */
export const bip270Payment = z
  .object({
    transaction: z.string().min(1).max(20_000_000).describe('The payment transaction, hex (raw, EF or BEEF)'),
    merchantData: z.string().max(10_000).optional(),
    memo: z.string().max(1_000).optional(),
    refundTo: z.string().max(1_000).optional(),
  })
  .strict();

/** Request examples of the order routes: Blue Bottle Cafe's counter. */

export const newOrderExample = {
  org_handle: 'blue-bottle-cafe',
  lines: [
    { item_id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31', quantity: 2, modifiers: [{ modifier_id: 'c2a1f0de-43b5-4d8e-a6f1-5b2c9e7d8a10' }] },
    { name: 'Pastry of the day', quantity: 1, unit_price_minor: 425 },
  ],
  discount_basis_points: 1000,
  tip_basis_points: 1500,
  note: 'Table 4',
};

/** The cart at the counter, priced before the order exists: a latte and a pastry, and a reward redeemed. */
export const quoteOrderExample = {
  ...newOrderExample,
  loyalty_card_id: '9f2c4e1a-7b3d-4c8e-a5f6-0d1e2b3c4a5f',
  redeem_reward_identifier: '7K3M-Q9TX-2HDR-V4PN',
};

export const confirmOrderExample = {
  org_handle: 'blue-bottle-cafe',
  txid: '9f3c2d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e',
};

export const cancelOrderExample = { org_handle: 'blue-bottle-cafe' };

export const bip270PaymentExample = {
  transaction: '0100000001' + 'ab'.repeat(32) + '000000006a47304402' + '00'.repeat(8) + 'ffffffff0200000000000000',
  merchantData: '{"order_number":"7Q2M9K4X1C"}',
  memo: 'Paid with HandCash',
};
