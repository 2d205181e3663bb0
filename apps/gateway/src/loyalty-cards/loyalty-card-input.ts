import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/**
 * Only the shape of a loyalty request (decision 0017, "Loyalty"): pos owns the rules (the program's
 * ranges, what an address or identifier must be, which order stamps which card) and names the field it refuses.
 */

const INT32 = 2 ** 31 - 1;

const cardId = z.uuid('must be a loyalty card id (a UUID)').describe('The loyalty card id');
const identifier = z
  .string()
  .min(1)
  .max(40)
  .describe("The card's identifier as printed or scanned, XXXX-XXXX-XXXX-XXXX (dashes, spaces and case ignored)");
const address = z.string().max(100).describe("The customer's own P2PKH address on the service's network");
const publicKey = z.string().max(132).describe("Or the customer's compressed public key (hex); its address is kept beside it");
const holder = z
  .object({ address: address.optional(), public_key: publicKey.optional() })
  .strict()
  .describe("The customer's address or public key");

export const loyaltyCardParams = z.object({ id: cardId });
export const identifierParams = z.object({ identifier });
export const stampTxidParams = z.object({
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
    .describe('The transaction that paid the stamped order'),
});

export const loyaltyProgramBody = z
  .object({
    stamp_rule: z.enum(['visit', 'amount']).describe('visit: one stamp per paid order; amount: one per amount_per_stamp_minor spent'),
    amount_per_stamp_minor: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('For "amount": the minor units of an order (its subtotal after discount, before tax and tip) that earn one stamp'),
    stamps_for_reward: z.number().int().min(-INT32).max(INT32).describe('Stamps that earn a reward, 1 to 100'),
    reward: z.string().max(120).describe('What a reward is, as the customer reads it'),
    reward_value_minor: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('What the reward takes off an order that redeems it (before tax), in minor units; absent or 0: no value'),
    active: z.boolean().default(true).describe('false: no new cards and no stamps; stamps given can still be redeemed'),
  })
  .strict();

export const newLoyaltyCard = z
  .object({
    org_handle: handleField.describe('The organisation that issues the card'),
    holder: holder.optional().describe("The customer's address or public key; absent: the card is held by whoever has its identifier"),
  })
  .strict();

/** A signed challenge (POST /api/auth/challenge with "purpose": "bind_card"): proof that the caller holds a key. */
export const keyProof = z
  .object({
    nonce: z.string().regex(/^[0-9a-f]{32}$/, 'the nonce of the challenge'),
    signature: z.string().regex(/^[0-9a-f]{16,200}$/i, 'a DER-encoded ECDSA signature of the challenge message, in hex'),
  })
  .strict()
  .describe(
    'Proof that you hold the key: ask POST /api/auth/challenge {"did": "did:key:<your key>", "purpose": "bind_card"}, sign its message (ECDSA over SHA-256, DER hex); used once',
  );

export const joinLoyaltyProgramBody = z
  .object({
    org_handle: handleField.describe('The shop whose loyalty program you join'),
    address: address.optional().describe('Your own P2PKH address: needs `proof` of its key (decision 0024)'),
    public_key: publicKey.optional().describe('Or your compressed public key: needs `proof`'),
    proof: keyProof
      .optional()
      .describe(
        'Your signed bind_card challenge: the card is bound to its key and address; absent, the card is held by you (your user) alone',
      ),
  })
  .strict();

export const stampBody = z
  .object({
    org_handle: handleField,
    order_number: z
      .string()
      .regex(/^[0-9A-Za-z]{10}$/, 'must be a 10-character order number such as 7Q2M9K4X1C')
      .describe('A paid order of the organisation; an order stamps one card, once'),
  })
  .strict();

export const redeemBody = z
  .object({ org_handle: handleField, identifier: identifier.describe('The identifier the customer presented (the card or its QR)') })
  .strict();

export const transferBody = z
  .object({
    org_handle: handleField,
    to: holder
      .refine(
        (to) => Boolean(to.address || to.public_key),
        'name the new holder by address or public_key, or leave "to" out to re-key only',
      )
      .optional()
      .describe('The new holder; absent: the holder stays and the card only gets a new identifier (a lost card)'),
  })
  .strict();

/** Request examples: Blue Bottle Cafe's stamp card, a free coffee for eight visits. */

export const loyaltyProgramExample: z.input<typeof loyaltyProgramBody> = {
  stamp_rule: 'visit',
  stamps_for_reward: 8,
  reward: 'A free coffee of your choice',
  reward_value_minor: 575,
  active: true,
};

export const newLoyaltyCardExample: z.input<typeof newLoyaltyCard> = {
  org_handle: 'blue-bottle-cafe',
  holder: { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' },
};

export const joinLoyaltyProgramExample: z.input<typeof joinLoyaltyProgramBody> = { org_handle: 'blue-bottle-cafe' };

export const stampExample: z.input<typeof stampBody> = { org_handle: 'blue-bottle-cafe', order_number: '7Q2M9K4X1C' };

export const redeemExample: z.input<typeof redeemBody> = { org_handle: 'blue-bottle-cafe', identifier: '7K3M-Q9TX-2HDR-V4PN' };

export const transferExample: z.input<typeof transferBody> = {
  org_handle: 'blue-bottle-cafe',
  to: { public_key: '02b4632d08485ff1df2db55b9dafd23347d1c47a457072a1e87be26896549a8737' },
};
