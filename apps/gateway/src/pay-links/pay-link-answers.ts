import { z } from 'zod';
import { isoTime, minorUnits, named, pageOf } from '../routes/answer-schema.js';

/**
 * What the pay link routes answer (decision 0015, "Pay links"): staff see the link with its uses; the
 * public read shows the signed terms and whether the link takes a payment, and nothing private (no
 * organisation id, no creator, no use counts).
 */

const LINK_ID = '3b0f6f0e-2a53-4a55-9a43-1e1f7f0c9d21';
const PAGE_URL = `https://pay.example.com/l/${LINK_ID}`;

const terms = z
  .object({
    id: z.uuid(),
    merchant_handle: z.string(),
    currency: z.string(),
    amount_minor: minorUnits.nullable().describe('The fixed amount; null when the payer chooses within the bounds'),
    min_minor: minorUnits.nullable().describe('The least the payer may choose; null for a fixed amount'),
    max_minor: minorUnits.nullable().describe('The most the payer may choose; null for a fixed amount'),
    memo: z.string(),
    expires_at: isoTime.nullable(),
  })
  .describe('What the link asks for: the fields pos signs');

const status = z
  .enum(['active', 'disabled', 'expired', 'used_up'])
  .describe('active: takes payments; disabled by the merchant; expired; used_up: every use paid');

const EXAMPLE_TERMS = {
  id: LINK_ID,
  merchant_handle: 'blue-bottle-cafe',
  currency: 'USD',
  amount_minor: 18_500,
  min_minor: null,
  max_minor: null,
  memo: 'Invoice 1042: office catering, 14 March',
  expires_at: '2026-04-14T23:59:59.000Z',
};
const EXAMPLE_SIGNATURE = '5f1c0a9e3d7b2c4e8a6f0d1b3e5c7a9f2d4b6e8c0a1f3d5b7e9c2a4f6d8b0e1c';

export const payLink = named(
  'PayLink',
  z.object({
    terms,
    signature: z.string().describe("HMAC-SHA256 of the terms under pos's pay-link key, hex"),
    status,
    max_uses: z.number().int().nullable().describe('null: no limit'),
    uses_paid: z.number().int().describe('Paid orders opened from the link'),
    uses_held: z
      .number()
      .int()
      .describe(
        'Open orders from the link, not yet expired; they hold no use: the first paid takes it and the others are cancelled (decision 0024)',
      ),
    page_url: z.url().describe('The public pay page'),
    qr_url: z.url().describe('The QR code of the page URL (add ?format=png for PNG)'),
    created_by: z.string().describe('The user who made the link'),
    created_at: isoTime,
    disabled_at: isoTime.nullable(),
  }),
  {
    terms: EXAMPLE_TERMS,
    signature: EXAMPLE_SIGNATURE,
    status: 'active',
    max_uses: 1,
    uses_paid: 0,
    uses_held: 0,
    page_url: PAGE_URL,
    qr_url: `https://pay.example.com/api/v1/pay-links/${LINK_ID}/qr`,
    created_by: '0c6f4f7e-3d4b-4c3f-8e2a-9b1d5a7c3e10',
    created_at: '2026-03-14T16:05:00.000Z',
    disabled_at: null,
  },
);
export type PayLinkAnswer = z.infer<typeof payLink>;
export const payLinkPage = pageOf('PayLink', payLink);

export const publicPayLink = named(
  'PublicPayLink',
  z.object({
    terms,
    signature: z.string().describe("HMAC-SHA256 of the terms under pos's pay-link key, hex"),
    status,
    page_url: z.url(),
    qr_url: z.url(),
  }),
  {
    terms: EXAMPLE_TERMS,
    signature: EXAMPLE_SIGNATURE,
    status: 'active',
    page_url: PAGE_URL,
    qr_url: `https://pay.example.com/api/v1/pay-links/${LINK_ID}/qr`,
  },
);
export type PublicPayLinkAnswer = z.infer<typeof publicPayLink>;

export const PAY_LINK_QR_FILES = {
  'image/svg+xml': {
    description: 'The QR code of the link’s public page URL as SVG',
    example: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" shape-rendering="crispEdges">…</svg>',
  },
  'image/png': { description: 'The same QR code as a PNG image (512 pixels)', example: '(PNG bytes)' },
};
