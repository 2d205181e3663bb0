import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/** Only the shape of a pay link request: pos owns its rules (one amount or one pair of bounds, the memo, the expiry). */

const linkId = z.uuid('must be a pay link id (a UUID)').describe('The pay link id');
const minor = z.number().int().min(0).describe('Minor units of the link currency');

export const orgPayLinkParams = z.object({ handle: handleField, id: linkId });
export const payLinkParams = z.object({ id: linkId });

export const newPayLink = z
  .object({
    currency: z.string().max(3).describe('ISO 4217, upper case'),
    amount_minor: minor.optional().describe('A fixed amount; or give min_minor and max_minor for the payer to choose'),
    min_minor: minor.optional().describe('The least the payer may choose'),
    max_minor: minor.optional().describe('The most the payer may choose'),
    memo: z.string().max(200).describe('What the payer sees, and the line of each order'),
    max_uses: z.number().int().min(0).max(1_000_000).optional().describe('How many payments the link takes; absent or 0: no limit'),
    expires_at: z.string().max(40).optional().describe('RFC 3339, in the future; absent: no expiry'),
  })
  .strict();

export const openPayLinkOrderBody = z
  .object({
    amount_minor: minor.optional().describe("The payer's choice, within the link's bounds; leave out for a fixed amount"),
  })
  .strict();

/** Request examples of the pay link routes: Blue Bottle Cafe's catering invoice and tip jar. */

export const newPayLinkExample = {
  currency: 'USD',
  amount_minor: 18_500,
  memo: 'Invoice 1042: office catering, 14 March',
  max_uses: 1,
  expires_at: '2026-04-14T23:59:59Z',
};

export const openPayLinkOrderExample = { amount_minor: 500 };
