import { z } from 'zod';
import { checkout, issuedTicket } from '../commerce/commerce-answers.js';
import { exampleOf, isoTime, minorUnits, named, pageOf } from '../routes/answer-schema.js';
import { JAZZ_NIGHT_ID, SEATED_ID, STANDING_ID } from './ticket-input.js';

/** What the ticket routes answer (decision 0020), with Blue Bottle Cafe's jazz night as the example. */

const VENUE = 'Blue Bottle Cafe, back room, 300 Webster St, Oakland';

const eventFields = {
  id: z.uuid(),
  name: z.string(),
  starts_at: isoTime,
  ends_at: isoTime,
  venue: z.string(),
};

export const ticketList = named(
  'CommerceTicketList',
  z.object({
    events: z
      .array(
        z.object({
          ...eventFields,
          ticket_types: z.array(
            z.object({
              id: z.uuid(),
              name: z.string(),
              price_minor: minorUnits.describe('Minor units of its currency, as the merchant states prices (see prices_include_tax)'),
              currency: z.string(),
              available: z.number().int().describe('Tickets left to sell now (seats held by pending checkouts are not)'),
              sold_out: z.boolean(),
            }),
          ),
        }),
      )
      .describe('The events still to end, in the order of the catalog'),
  }),
  {
    events: [
      {
        id: JAZZ_NIGHT_ID,
        name: 'Jazz night',
        starts_at: '2026-06-12T19:00:00.000Z',
        ends_at: '2026-06-12T23:00:00.000Z',
        venue: VENUE,
        ticket_types: [
          { id: STANDING_ID, name: 'Standing', price_minor: 2500, currency: 'USD', available: 45, sold_out: false },
          { id: SEATED_ID, name: 'Seated', price_minor: 4000, currency: 'USD', available: 0, sold_out: true },
        ],
      },
    ],
  },
);

const ticketCheckoutLine = z.object({
  ticket_type_id: z.uuid(),
  name: z.string().describe('"<event>: <ticket type>"'),
  quantity: z.number().int(),
  unit_price_minor: minorUnits.describe("The ticket type's price in the catalog"),
  tax_minor: minorUnits,
  total_minor: minorUnits.describe('What the line costs, tax included'),
});

const checkoutExample = exampleOf(checkout);

export const ticketCheckout = named(
  'CommerceTicketCheckout',
  checkout.omit({ lines: true }).extend({
    lines: z.array(ticketCheckoutLine),
    expires_at: isoTime.describe('The seats are held until then; unpaid by then, the checkout expires and they are for sale again'),
  }),
  {
    ...checkoutExample,
    lines: [
      { ticket_type_id: STANDING_ID, name: 'Jazz night: Standing', quantity: 2, unit_price_minor: 2500, tax_minor: 0, total_minor: 5000 },
      { ticket_type_id: SEATED_ID, name: 'Jazz night: Seated', quantity: 1, unit_price_minor: 4000, tax_minor: 0, total_minor: 4000 },
    ],
    subtotal_minor: 9000,
    tax_minor: 0,
    total_minor: 9000,
    satoshis: 180_000_000,
    due_satoshis: 180_000_000,
    bip21_uri: checkoutExample.bip21_uri.replace('amount=0.3594', 'amount=1.8'),
  },
);

const TICKETS = [
  {
    code: 'K7QM2X9D4RTV8W1HZP3C',
    event_id: JAZZ_NIGHT_ID,
    event_name: 'Jazz night',
    ticket_type_id: STANDING_ID,
    ticket_type_name: 'Standing',
    qr_url: 'https://pay.example.com/api/v1/tickets/K7QM2X9D4RTV8W1HZP3C/qr',
    checked_in_at: '2026-06-12T19:04:12.000Z',
  },
  {
    code: 'B3NF6Y0A5JKE2S7VGQ9T',
    event_id: JAZZ_NIGHT_ID,
    event_name: 'Jazz night',
    ticket_type_id: STANDING_ID,
    ticket_type_name: 'Standing',
    qr_url: 'https://pay.example.com/api/v1/tickets/B3NF6Y0A5JKE2S7VGQ9T/qr',
    checked_in_at: null,
  },
];

export const ticketOrder = named(
  'TicketOrder',
  z.object({
    id: z.uuid(),
    order_number: z.string().describe('The point-of-sale order the ticket checkout opened'),
    status: z
      .enum(['pending', 'paid', 'confirmed', 'expired', 'cancelled', 'refunded'])
      .describe('As last read (the buyer polls the status); refunded: in full at the provider'),
    hold: z
      .enum(['held', 'sold', 'released', 'unfulfilled', 'refunded'])
      .describe(
        'held: seats held until expires_at; sold: paid, tickets issued; released: expired or cancelled, the seats for sale again; ' +
          'unfulfilled: paid after its seats were released and sold to someone else (refund the buyer); ' +
          'refunded: refunded in full at the provider, the seats for sale again and its tickets void',
      ),
    currency: z.string(),
    total_minor: minorUnits,
    lines: z.array(
      z.object({
        ticket_type_id: z.uuid(),
        event_name: z.string(),
        ticket_type_name: z.string(),
        quantity: z.number().int(),
        unit_price_minor: minorUnits,
      }),
    ),
    tickets: z.array(issuedTicket),
    created_at: isoTime,
    expires_at: isoTime,
    paid_at: isoTime.nullable(),
  }),
  {
    id: '2d4f6a8c-0e1b-4c3d-9f5a-7b9d1f3a5c08',
    order_number: '4M8Q1T6W9B',
    status: 'paid',
    hold: 'sold',
    currency: 'USD',
    total_minor: 5000,
    lines: [{ ticket_type_id: STANDING_ID, event_name: 'Jazz night', ticket_type_name: 'Standing', quantity: 2, unit_price_minor: 2500 }],
    tickets: TICKETS,
    created_at: '2026-06-01T18:20:00.000Z',
    expires_at: '2026-06-01T18:35:00.000Z',
    paid_at: '2026-06-01T18:22:41.000Z',
  },
);

export const ticketOrderPage = pageOf('TicketOrder', ticketOrder);

export const checkedInTicket = named('CheckedInTicket', issuedTicket, TICKETS[0]!);

/** The ticket's QR code: bytes only (no JSON), like a wallet pass. */
export const TICKET_QR_FILES = {
  'image/svg+xml': { description: "The QR code of the ticket's code as SVG", binary: true as const },
  'image/png': { description: 'The same QR code as a PNG image (512 pixels)', binary: true as const },
};
