import { z } from 'zod';
import { merchantParams } from '../commerce/commerce-input.js';

/**
 * Only the shapes of the ticket routes' requests: commerce owns the rules (decision 0020), the bounds of a
 * catalog and of a checkout among them, and names the field it refuses.
 */

export const JAZZ_NIGHT_ID = '3f6c1a2e-8b4d-4c7e-9a15-2d8e6f0b7c41';
export const STANDING_ID = '9b2e4d6f-1a3c-4e5b-8d7f-0c2a4e6b8d13';
export const SEATED_ID = 'e1d3c5b7-2f4a-4b6c-9e8d-7a5c3e1f9b20';

/** Ticket types and quantities only: prices come from the ticket catalog, never from the browser. */
export const newTicketCheckout = z
  .object({
    lines: z
      .array(
        z
          .object({
            ticket_type_id: z.uuid('must be a ticket type id (a UUID)').describe('A ticket type of the ticket list'),
            quantity: z.number().int().default(1).describe('Tickets of this type, 1 to 100'),
          })
          .strict(),
      )
      .describe('1 to 20 lines'),
  })
  .strict();

export const newTicketCheckoutExample: z.input<typeof newTicketCheckout> = {
  lines: [
    { ticket_type_id: STANDING_ID, quantity: 2 },
    { ticket_type_id: SEATED_ID, quantity: 1 },
  ],
};

export const ticketCodeField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-HJKMNP-TV-Z]{20}$/, 'must be a ticket code: 20 characters of Crockford base32')
  .describe('The code the ticket answered, as its QR code shows it (any case)');

export const checkInBody = z.object({ code: ticketCodeField }).strict();
export const checkInExample: z.input<typeof checkInBody> = { code: 'K7QM2X9D4RTV8W1HZP3C' };

export const ticketQrParams = z.object({ code: ticketCodeField });
export const ticketQrQuery = z.object({ format: z.enum(['svg', 'png']).default('svg') }).strict();

export { merchantParams };
