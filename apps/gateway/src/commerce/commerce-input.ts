import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/** Only the shape of the Commerce API's requests: commerce checks the lines against the catalog, pos prices them (decision 0018). */

export const merchantParams = z.object({
  merchant_handle: handleField.describe("The merchant's handle; the commerce key must be its own"),
});

export const catalogItemParams = merchantParams.extend({ id: z.uuid('must be an item id (a UUID)').describe('An item of the catalog') });

export const checkoutStatusParams = merchantParams.extend({
  public_token: z
    .string()
    .regex(/^cko_[A-Za-z0-9_-]{32}$/, 'must be a checkout public token: cko_ and 32 characters')
    .describe('The public token the checkout answered'),
});

const checkoutLine = z
  .object({
    item_id: z.uuid('must be an item id (a UUID)').describe('An item of the catalog'),
    quantity: z.number().int().default(1).describe('Units, 1 to 10,000'),
    modifier_ids: z
      .array(z.uuid('must be a modifier id (a UUID)'))
      .optional()
      .describe("The item's modifiers chosen, by id (one per group), at most 20"),
  })
  .strict();

/** Lines only: no price, total or tax is read from the browser (an unknown field is refused). Commerce bounds them as pos bounds an order. */
export const newCheckout = z.object({ lines: z.array(checkoutLine).describe('1 to 100 lines') }).strict();

export const newCheckoutExample: z.input<typeof newCheckout> = {
  lines: [
    { item_id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31', quantity: 2, modifier_ids: ['c2a1f0de-43b5-4d8e-a6f1-5b2c9e7d8a10'] },
    { item_id: '6f0d2b8e-9a4c-4e1f-b3d7-2c5a8e1f0b94', quantity: 1 },
  ],
};
