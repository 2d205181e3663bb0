import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/** Only the shape of a POS card request: pos owns its rules (an address of the chain's network, a public key on the curve, the label's text). */

export const posCardParams = z.object({ card_id: z.uuid('must be a POS card id (a UUID)').describe('The POS card id') });

export const addressParams = z.object({
  address: z.string().max(100).describe("The customer's P2PKH address on this chain's network, or the compressed public key it came from"),
});

export const shopParams = z.object({ shop_id: handleField.describe("The shop: its organisation's handle") });

export const shopAddressParams = shopParams.extend(addressParams.shape);

export const newPosCard = z
  .object({
    org_handle: handleField.describe('The shop the card is at'),
    holder: z
      .object({
        address: z.string().max(100).optional().describe("The customer's P2PKH address on this chain's network"),
        public_key: z
          .string()
          .max(130)
          .optional()
          .describe('Or their compressed public key (66 hex digits); its address is kept beside it'),
      })
      .strict()
      .describe("The customer's own address or public key (at least one; given both, they must agree)"),
    label: z.string().max(120).optional().describe('What staff call the customer, e.g. "Sam, oat flat white"; staff only'),
  })
  .strict();

/** Request example of the POS card routes: Blue Bottle Cafe's counter scans a regular's wallet. */
export const newPosCardExample = {
  org_handle: 'blue-bottle-cafe',
  holder: { address: '1GDJbB9BGhqSo8tUdsyCWKscuRi4ZodNzE' },
  label: 'Sam, oat flat white',
};
