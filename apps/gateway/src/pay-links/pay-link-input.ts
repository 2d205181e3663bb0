import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/** The shape of a payer's pay link request: pos owns its rules (within the link's bounds). */

const linkId = z.uuid('must be a pay link id (a UUID)').describe('The pay link id');
const minor = z.number().int().min(0).describe('Minor units of the link currency');

export const orgPayLinkParams = z.object({ handle: handleField, id: linkId });
export const payLinkParams = z.object({ id: linkId });

export const openPayLinkOrderBody = z
  .object({
    amount_minor: minor.optional().describe("The payer's choice, within the link's bounds; leave out for a fixed amount"),
  })
  .strict();

/** Request examples of the pay link routes: Blue Bottle Cafe's catering invoice and tip jar. */

export const openPayLinkOrderExample = { amount_minor: 500 };
