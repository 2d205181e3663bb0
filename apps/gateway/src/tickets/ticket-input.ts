import { z } from 'zod';
import { merchantParams } from '../commerce/commerce-input.js';

/** Only the shapes of the ticket routes' requests: commerce owns the rules (decision 0020). */

const optionalId = z.uuid('must be an id the catalog answered (a UUID)').optional();

const ticketTypeInput = z
  .object({
    id: optionalId.describe('Leave out for a new ticket type; send it back to keep the type (and its tickets)'),
    name: z.string().min(1).max(60),
    price_minor: z.number().int().min(1).max(1_000_000_000_000).describe('Minor units of currency'),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as "USD"'),
    capacity: z.number().int().min(0).max(1_000_000).describe('Tickets of this type for sale in all'),
  })
  .strict();

const ticketEventInput = z
  .object({
    id: optionalId.describe('Leave out for a new event; send it back to keep the event'),
    name: z.string().min(1).max(100),
    starts_at: z.iso.datetime({ offset: true }),
    ends_at: z.iso.datetime({ offset: true }).describe('After starts_at; the event is listed for sale until then'),
    venue: z.string().max(200).default(''),
    ticket_types: z.array(ticketTypeInput).min(1).max(20),
  })
  .strict();

/** The whole catalog: an event or type left out is removed (refused while it has tickets sold or held). */
export const ticketCatalogBody = z.object({ events: z.array(ticketEventInput).max(50) }).strict();

export const JAZZ_NIGHT_ID = '3f6c1a2e-8b4d-4c7e-9a15-2d8e6f0b7c41';
export const STANDING_ID = '9b2e4d6f-1a3c-4e5b-8d7f-0c2a4e6b8d13';
export const SEATED_ID = 'e1d3c5b7-2f4a-4b6c-9e8d-7a5c3e1f9b20';

export const ticketCatalogExample: z.input<typeof ticketCatalogBody> = {
  events: [
    {
      id: JAZZ_NIGHT_ID,
      name: 'Jazz night',
      starts_at: '2026-06-12T19:00:00Z',
      ends_at: '2026-06-12T23:00:00Z',
      venue: 'Blue Bottle Cafe, back room, 300 Webster St, Oakland',
      ticket_types: [
        { id: STANDING_ID, name: 'Standing', price_minor: 2500, currency: 'USD', capacity: 80 },
        { id: SEATED_ID, name: 'Seated', price_minor: 4000, currency: 'USD', capacity: 20 },
      ],
    },
    {
      name: 'Latte art workshop',
      starts_at: '2026-06-20T10:00:00Z',
      ends_at: '2026-06-20T12:00:00Z',
      venue: 'Blue Bottle Cafe',
      ticket_types: [{ name: 'Place', price_minor: 3500, currency: 'USD', capacity: 12 }],
    },
  ],
};

/** Ticket types and quantities only: prices come from the ticket catalog, never from the browser. */
export const newTicketCheckout = z
  .object({
    lines: z
      .array(
        z
          .object({
            ticket_type_id: z.uuid('must be a ticket type id (a UUID)').describe('A ticket type of the ticket list'),
            quantity: z.number().int().min(1).max(100).default(1),
          })
          .strict(),
      )
      .min(1)
      .max(20),
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
