import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/** Only the shape of a prepaid card request: pos owns its rules (the value, the currency, the holder, the identifier). */

const cardId = z.uuid('must be a prepaid card id (a UUID)').describe('The prepaid card id');

export const prepaidCardParams = z.object({ id: cardId });
export const identifierParams = z.object({
  identifier: z
    .string()
    .max(64)
    .describe('The card identifier as printed, XXXX-XXXX-XXXX-XXXX (dashes, spaces and case are ignored; I, L and O read as 1, 1 and 0)'),
});

const holder = z
  .object({
    address: z.string().max(100).optional().describe("The customer's P2PKH address"),
    public_key: z.string().max(132).optional().describe('Or their compressed public key, hex (its address is kept beside it)'),
  })
  .strict();

const value = z.number().int().describe('The card value in minor units of its currency (1 to 100,000,000)');
const currency = z.string().max(3).optional().describe("ISO 4217; absent: the organisation's (its items', else its jurisdiction's)");

export const issuePrepaidCardBody = z
  .object({
    org_handle: handleField.describe('The organisation issuing the card'),
    amount_minor: value,
    currency,
    holder: holder.optional().describe('Who holds the card; absent: whoever has its identifier'),
  })
  .strict();

export const purchasePrepaidCardBody = z
  .object({
    org_handle: handleField.describe('The shop whose card this is'),
    amount_minor: value,
    currency,
    gift: z
      .boolean()
      .optional()
      .describe('A gift: the caller does not hold it (the holder is `to`, or whoever they hand the identifier to)'),
    to: holder.optional().describe('For a gift: who holds it'),
  })
  .strict()
  .refine((body) => !body.to || body.gift === true, { message: 'to names the holder of a gift: send "gift": true with it', path: ['to'] });

export const usePrepaidCardBody = z
  .object({
    org_handle: handleField.describe('The organisation whose card and order these are'),
    identifier: z.string().max(64).describe('The identifier the customer presented: proof that the card is at the counter'),
    order_number: z.string().max(20).describe('An open order of the organisation in the card currency'),
    amount_minor: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Absent or 0: as much as the order still needs, up to the balance; otherwise at most the balance and what is due'),
  })
  .strict();

export const transferPrepaidCardBody = z
  .object({
    org_handle: handleField.describe('The organisation whose card this is'),
    to: holder.describe('The new holder: an address or a public key'),
  })
  .strict();

/** Request examples of the prepaid card routes: Blue Bottle Cafe's gift cards. */

export const issuePrepaidCardExample = {
  org_handle: 'blue-bottle-cafe',
  amount_minor: 2500,
  currency: 'USD',
  holder: { address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' },
};

export const purchasePrepaidCardExample = { org_handle: 'blue-bottle-cafe', amount_minor: 5000, gift: true };

export const usePrepaidCardExample = {
  org_handle: 'blue-bottle-cafe',
  identifier: '7K3M-9QX2-HC4T-W8ZD',
  order_number: '7Q2M9K4X1C',
};

export const transferPrepaidCardExample = {
  org_handle: 'blue-bottle-cafe',
  to: { public_key: '02b4632d08485ff1df2db55b9dafd23347d1c47a457072a1e87be26896549a8737' },
};
