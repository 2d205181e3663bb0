import { z } from 'zod';
import { isoTime, minorUnits, named } from '../routes/answer-schema.js';

/** What the Commerce API answers a shopper's browser (decision 0018), with Blue Bottle Cafe's web shop as the example. */

const LATTE_ID = '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31';
const SCONE_ID = '6f0d2b8e-9a4c-4e1f-b3d7-2c5a8e1f0b94';
const LARGE_ID = 'c2a1f0de-43b5-4d8e-a6f1-5b2c9e7d8a10';
const ORDER_NUMBER = '8R3N0M5Y2D';
const ADDRESS = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const ORDER_URL = `https://pay.example.com/api/pos/orders/${ORDER_NUMBER}`;
const PUBLIC_TOKEN = 'cko_Qmx1ZUJvdHRsZS1jaGVja291dC0wMDAx';
const checkoutStatuses = z
  .enum(['pending', 'paid', 'confirmed', 'expired', 'cancelled', 'refunded'])
  .describe(
    'pending until paid; confirmed once every payment is mined; expired unpaid; cancelled by staff; refunded in full at the provider that took the payment',
  );

export const merchantProfile = named(
  'CommerceMerchant',
  z.object({
    handle: z.string(),
    name: z.string(),
    avatar_url: z.string().nullable(),
    category: z.string().nullable(),
    paymail: z.string().nullable(),
    currency: z
      .string()
      .nullable()
      .describe('The currency the catalog is priced in (the first of `currencies`); null while nothing is for sale'),
    currencies: z.array(z.string()).describe('Every currency of the items for sale; a checkout takes items of one currency'),
    items_for_sale: z.number().int(),
    prices_include_tax: z.boolean().describe('Whether catalog prices include tax; the checkout adds it when they do not'),
    accepts_payments: z.boolean().describe('The merchant has registered a wallet to be paid into: checkouts can be created'),
  }),
  {
    handle: 'blue-bottle-cafe',
    name: 'Blue Bottle Cafe',
    avatar_url: 'https://bluebottle.example/logo.png',
    category: 'cafe',
    paymail: 'cafe@example.com',
    currency: 'USD',
    currencies: ['USD'],
    items_for_sale: 12,
    prices_include_tax: false,
    accepts_payments: true,
  },
);

const checkoutLine = z.object({
  item_id: z.uuid(),
  name: z.string(),
  quantity: z.number().int(),
  unit_price_minor: minorUnits.describe("The item's price plus its modifiers"),
  modifiers: z.array(z.object({ modifier_id: z.uuid(), name: z.string(), price_minor: minorUnits })),
  tax_minor: minorUnits,
  total_minor: minorUnits.describe('What the line costs, tax included'),
});

const PAYMENT_REQUEST_URL = `${ORDER_URL}/payment-request`;

export const checkout = named(
  'CommerceCheckout',
  z.object({
    public_token: z.string().describe('What the browser keeps to read the status'),
    status: checkoutStatuses,
    merchant_handle: z.string(),
    currency: z.string(),
    lines: z.array(checkoutLine),
    subtotal_minor: minorUnits,
    tax_minor: minorUnits,
    total_minor: minorUnits.describe('What the shopper pays, in minor units'),
    prices_include_tax: z.boolean(),
    satoshis: z.number().int().describe('The total in satoshis at exchange_rate'),
    paid_satoshis: z.number().int(),
    due_satoshis: z.number().int().describe('What is still to pay (0 once paid)'),
    exchange_rate: z.string().describe('Satoshis per minor unit, an exact decimal'),
    order_number: z.string().describe('The point-of-sale order the checkout opened'),
    address: z.string(),
    bip21_uri: z.string().describe('For the QR code: a wallet pays the address, or follows r= to the BIP270 request'),
    pay_uri: z.string().describe('pay:?r=<BIP270 payment request URL>'),
    payment_request_url: z.string().describe('BIP270: GET it, then POST the Payment to its paymentUrl'),
    qr_url: z.string().describe('The bip21_uri as a QR code (SVG; ?format=png for PNG)'),
    events_url: z.string().describe('Server-Sent Events: the order at each change, until it is final (polling status is the alternative)'),
    created_at: isoTime,
    expires_at: isoTime.describe('Unpaid by then, the checkout expires'),
    paid_at: isoTime.nullable(),
    confirmed_at: isoTime.nullable(),
  }),
  {
    public_token: PUBLIC_TOKEN,
    status: 'pending',
    merchant_handle: 'blue-bottle-cafe',
    currency: 'USD',
    lines: [
      {
        item_id: LATTE_ID,
        name: 'Oat milk latte',
        quantity: 2,
        unit_price_minor: 625,
        modifiers: [{ modifier_id: LARGE_ID, name: 'Large', price_minor: 50 }],
        tax_minor: 91,
        total_minor: 1341,
      },
      { item_id: SCONE_ID, name: 'Blueberry scone', quantity: 1, unit_price_minor: 425, modifiers: [], tax_minor: 31, total_minor: 456 },
    ],
    subtotal_minor: 1675,
    tax_minor: 122,
    total_minor: 1797,
    prices_include_tax: false,
    satoshis: 35_940_000,
    paid_satoshis: 0,
    due_satoshis: 35_940_000,
    exchange_rate: '20000',
    order_number: ORDER_NUMBER,
    address: ADDRESS,
    bip21_uri:
      `bitcoin:${ADDRESS}?sv&amount=0.3594&label=blue-bottle-cafe&message=Order%20${ORDER_NUMBER}` +
      `&r=${encodeURIComponent(PAYMENT_REQUEST_URL)}`,
    pay_uri: `pay:?r=${encodeURIComponent(PAYMENT_REQUEST_URL)}`,
    payment_request_url: PAYMENT_REQUEST_URL,
    qr_url: `${ORDER_URL}/qr`,
    events_url: `${ORDER_URL}/events`,
    created_at: '2026-03-02T09:30:00.000Z',
    expires_at: '2026-03-02T09:45:00.000Z',
    paid_at: null,
    confirmed_at: null,
  },
);
export type CheckoutAnswer = z.infer<typeof checkout>;

/** A paid ticket (decision 0020): its code is the ticket, shown as the QR at qr_url and checked in once at the door. */
export const issuedTicket = z.object({
  code: z.string().describe('20 characters of Crockford base32: unguessable; whoever holds it holds the ticket'),
  event_id: z.uuid(),
  event_name: z.string(),
  ticket_type_id: z.uuid(),
  ticket_type_name: z.string(),
  qr_url: z.string().describe('The code as a QR code (SVG; ?format=png for PNG), public'),
  checked_in_at: isoTime.nullable(),
});

export const checkoutStatus = named(
  'CommerceCheckoutStatus',
  z.object({
    public_token: z.string(),
    status: checkoutStatuses,
    currency: z.string(),
    total_minor: minorUnits,
    satoshis: z.number().int(),
    paid_satoshis: z.number().int(),
    due_satoshis: z.number().int(),
    expires_at: isoTime,
    paid_at: isoTime.nullable(),
    confirmed_at: isoTime.nullable(),
    provider: z
      .enum(['card-provider', 'wallet-provider'])
      .nullable()
      .describe('Paid through this card or wallet provider (its order is then paid_elsewhere); null when paid in bitcoin or unpaid'),
    refunded_minor: minorUnits.describe('What the provider refunded so far (a part: status stays paid; all of it: refunded)'),
    tickets: z
      .array(issuedTicket)
      .optional()
      .describe('A ticket checkout only: its tickets, once paid (empty until then); the token holder is the buyer'),
  }),
  {
    public_token: PUBLIC_TOKEN,
    status: 'paid',
    currency: 'USD',
    total_minor: 1797,
    satoshis: 35_940_000,
    paid_satoshis: 35_940_000,
    due_satoshis: 0,
    expires_at: '2026-03-02T09:45:00.000Z',
    paid_at: '2026-03-02T09:32:10.000Z',
    confirmed_at: null,
    provider: null,
    refunded_minor: 0,
  },
);
