import { z } from 'zod';
import { isoTime, minorUnits, named } from '../routes/answer-schema.js';

/** What the order routes answer: the Order of pos's contract in snake_case (decision 0015), public by design. */

const ORDER_NUMBER = '7Q2M9K4X1C';
const ADDRESS = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const PAYMENT_REQUEST_URL = `https://pay.example.com/api/pos/orders/${ORDER_NUMBER}/payment-request`;
const OUTPUT_SCRIPT = '76a914751e76e8199196d454941c45d1b3a323f1433bd688ac';
const RECEIPT_SCRIPT =
  '006a0b63746b2e72656365697074013125626c75652d626f74746c652d636166654070' +
  '61792e6578616d706c652e636f6d0a3751324d394b345831432059f1c6ad0f0b1f3e7a2c4d8e9b0a1f2e3d4c5b6a79887766554433221100ffeedd';

const orderLine = z.object({
  item_id: z.string().describe('Empty for a keypad line'),
  name: z.string(),
  quantity: z.number().int(),
  unit_price_minor: minorUnits.describe("The item's price plus its modifiers"),
  modifiers: z.array(z.object({ modifier_id: z.string(), name: z.string(), price_minor: minorUnits })),
  discount_minor: minorUnits.describe("This line's share of the order discount"),
  tax_treatment: z.enum(['standard', 'reduced', 'exempt']),
  tax_rate: z.string().describe('The rate applied, a decimal string'),
  tax_minor: minorUnits,
  total_minor: minorUnits.describe('What the line costs the customer, tax included'),
});

const orderPayment = z.object({
  txid: z.string(),
  satoshis: z.number().int(),
  via: z.enum(['payment_request', 'address', 'staff']),
  status: z.string().describe('The chain state: pending, seen, mined, ...'),
  received_at: isoTime,
  late: z.boolean(),
});

const EXAMPLE_ORDER = {
  order_number: ORDER_NUMBER,
  status: 'open' as const,
  currency: 'USD',
  lines: [
    {
      item_id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31',
      name: 'Oat milk latte',
      quantity: 2,
      unit_price_minor: 625,
      modifiers: [{ modifier_id: 'c2a1f0de-43b5-4d8e-a6f1-5b2c9e7d8a10', name: 'Large', price_minor: 50 }],
      discount_minor: 125,
      tax_treatment: 'standard' as const,
      tax_rate: '0.0725',
      tax_minor: 82,
      total_minor: 1207,
    },
    {
      item_id: '',
      name: 'Pastry of the day',
      quantity: 1,
      unit_price_minor: 425,
      modifiers: [],
      discount_minor: 43,
      tax_treatment: 'standard' as const,
      tax_rate: '0.0725',
      tax_minor: 28,
      total_minor: 410,
    },
  ],
  subtotal_minor: 1675,
  discount_minor: 168,
  tax_minor: 110,
  // 15% of 1507, the amount after discount and before tax: 226.05, rounded half up.
  tip_minor: 226,
  total_minor: 1843,
  prices_include_tax: false,
  tax_jurisdiction: 'US-CA',
  exchange_rate: '20000',
  rate_source: 'fixed',
  rate_at: '2026-03-02T09:30:00.000Z',
  satoshis: 36_860_000,
  paid_satoshis: 0,
  due_satoshis: 36_860_000,
  flags: [],
  address: ADDRESS,
  bip21_uri: `bitcoin:${ADDRESS}?sv&amount=0.3686&label=blue-bottle-cafe&message=Order%20${ORDER_NUMBER}&r=${encodeURIComponent(PAYMENT_REQUEST_URL)}`,
  pay_uri: `pay:?r=${encodeURIComponent(PAYMENT_REQUEST_URL)}`,
  payment_request_url: PAYMENT_REQUEST_URL,
  payments: [],
  note: 'Table 4',
  created_at: '2026-03-02T09:30:00.000Z',
  expires_at: '2026-03-02T09:45:00.000Z',
  paid_at: null,
  confirmed_at: null,
  cancelled_at: null,
  receipt_merchant: 'blue-bottle-cafe@pay.example.com',
  receipt_reference: ORDER_NUMBER,
  merchant_handle: 'blue-bottle-cafe',
  merchant_name: 'Blue Bottle Cafe',
  merchant_paymail: 'cafe@pay.example.com',
  card_paid_minor: 0,
  prepaid_card_id: null,
  paid_elsewhere_by: null,
  reward_minor: 0,
  reward: '',
};

export const order = named(
  'PosOrder',
  z.object({
    order_number: z.string(),
    status: z
      .enum(['open', 'paid', 'confirmed', 'expired', 'cancelled', 'paid_elsewhere'])
      .describe('paid_elsewhere: paid at a card or wallet provider (paid_elsewhere_by); it takes no bitcoin payment'),
    currency: z.string(),
    lines: z.array(orderLine),
    subtotal_minor: minorUnits.describe('Sum of quantity x unit price before discount'),
    discount_minor: minorUnits,
    tax_minor: minorUnits,
    tip_minor: minorUnits,
    total_minor: minorUnits.describe("What the customer pays: the lines' totals plus the tip"),
    prices_include_tax: z.boolean(),
    tax_jurisdiction: z.string(),
    exchange_rate: z.string().describe('Satoshis per minor unit, an exact decimal'),
    rate_source: z.string(),
    rate_at: isoTime,
    satoshis: z.number().int(),
    paid_satoshis: z.number().int(),
    due_satoshis: z.number().int().describe('What is still to pay (0 once paid)'),
    flags: z
      .array(z.enum(['overpaid', 'paid_late', 'paid_partial', 'refund_due']))
      .describe('refund_due: bitcoin paid to an order already paid elsewhere, kept for the merchant to refund'),
    address: z.string(),
    bip21_uri: z.string(),
    pay_uri: z.string(),
    payment_request_url: z.string(),
    payments: z.array(orderPayment),
    note: z.string(),
    created_at: isoTime,
    expires_at: isoTime,
    paid_at: isoTime.nullable(),
    confirmed_at: isoTime.nullable(),
    cancelled_at: isoTime.nullable(),
    receipt_merchant: z.string(),
    receipt_reference: z.string(),
    merchant_handle: z.string(),
    merchant_name: z.string().optional().describe("The shop's name (on the order routes, for the customer's page and receipt)"),
    merchant_paymail: z
      .string()
      .nullable()
      .optional()
      .describe("The shop's paymail, alias@domain where it chose an alias, else null: a name that resolves, unlike receipt_merchant"),
    card_paid_minor: minorUnits.describe('Paid from prepaid cards; satoshis and due_satoshis are for the rest'),
    prepaid_card_id: z.uuid().nullable().describe('The prepaid card this order sells (its one line): paid, the card is active'),
    paid_elsewhere_by: z
      .enum(['card-provider', 'wallet-provider'])
      .nullable()
      .describe('paid_elsewhere: the provider that took the payment (an online checkout, decision 0019); else null'),
    reward_minor: minorUnits.describe(
      "A loyalty reward redeemed on the order: its value, taken off before tax like a discount (the lines' discount_minor include it)",
    ),
    reward: z.string().describe('What the reward is, as the program names it; empty: none'),
  }),
  EXAMPLE_ORDER,
);
export type OrderAnswer = z.infer<typeof order>;

/**
 * The order a request would create now, priced by pos and created nothing (decision 0023): what the
 * counter's cart shows. A latte and a pastry, 10% off, a free coffee redeemed (575), a 15% tip on the 932
 * left before tax.
 */
export const orderQuote = named(
  'PosOrderQuote',
  z.object({
    currency: z.string(),
    lines: z.array(orderLine),
    subtotal_minor: minorUnits.describe('Sum of quantity x unit price before discount'),
    discount_minor: minorUnits,
    reward_minor: minorUnits.describe('The loyalty reward the order would redeem, taken off before tax; 0: none'),
    reward: z.string(),
    tax_minor: minorUnits,
    tip_minor: minorUnits.describe(
      'A percentage of the amount after discount and reward, before tax, rounded half up; or the amount given',
    ),
    total_minor: minorUnits.describe("What the order will charge: the lines' totals plus the tip"),
    prices_include_tax: z.boolean(),
    tax_jurisdiction: z.string(),
  }),
  {
    currency: 'USD',
    lines: [
      { ...EXAMPLE_ORDER.lines[0]!, discount_minor: 554, tax_minor: 50, total_minor: 746 },
      { ...EXAMPLE_ORDER.lines[1]!, discount_minor: 189, tax_minor: 17, total_minor: 253 },
    ],
    subtotal_minor: 1675,
    discount_minor: 168,
    reward_minor: 575,
    reward: 'A free coffee of your choice',
    tax_minor: 67,
    tip_minor: 140,
    total_minor: 1139,
    prices_include_tax: false,
    tax_jurisdiction: 'US-CA',
  },
);
export type OrderQuoteAnswer = z.infer<typeof orderQuote>;

/** BIP270's PaymentRequest, in its own field names. */
export const paymentRequest = named(
  'Bip270PaymentRequest',
  z.object({
    network: z.string(),
    outputs: z.array(z.object({ script: z.string(), amount: z.number().int(), description: z.string() })),
    creationTimestamp: z.number().int(),
    expirationTimestamp: z.number().int(),
    memo: z.string(),
    paymentUrl: z.string(),
    merchantData: z.string(),
  }),
  {
    network: 'bitcoin-sv',
    outputs: [
      { script: OUTPUT_SCRIPT, amount: 37_220_000, description: `Order ${ORDER_NUMBER} at blue-bottle-cafe` },
      { script: RECEIPT_SCRIPT, amount: 0, description: 'Receipt' },
    ],
    creationTimestamp: 1_772_443_800,
    expirationTimestamp: 1_772_444_700,
    memo: `Order ${ORDER_NUMBER} at blue-bottle-cafe`,
    paymentUrl: `https://pay.example.com/api/pos/orders/${ORDER_NUMBER}/payment`,
    merchantData: `{"order_number":"${ORDER_NUMBER}"}`,
  },
);

/** BIP270's PaymentACK: the Payment echoed, a memo, error 0. */
export const paymentAck = named(
  'Bip270PaymentAck',
  z.object({
    payment: z.object({
      transaction: z.string(),
      merchantData: z.string().optional(),
      memo: z.string().optional(),
      refundTo: z.string().optional(),
    }),
    memo: z.string(),
    error: z.number().int(),
  }),
  {
    payment: { transaction: '0100000001ab…', merchantData: `{"order_number":"${ORDER_NUMBER}"}` },
    memo: `Order ${ORDER_NUMBER} is paid. Thank you.`,
    error: 0,
  },
);

export const ORDER_QR_FILES = {
  'image/svg+xml': {
    description: 'The QR code of the order’s BIP21 URI as SVG',
    example: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 41 41" shape-rendering="crispEdges">…</svg>',
  },
  'image/png': { description: 'The same QR code as a PNG image (512 pixels)', example: '(PNG bytes)' },
};

export const ORDER_EVENT_FILES = {
  'text/event-stream': {
    description: 'Server-Sent Events: event `order`, data the order as JSON, at each change until it is final',
    example: `event: order\ndata: {"order_number":"${ORDER_NUMBER}","status":"paid", …}\n\n`,
  },
};
