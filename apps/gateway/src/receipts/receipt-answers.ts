import { z } from 'zod';
import { named } from '../routes/answer-schema.js';

/** What receipt verification answers: the receipt on chain, what it paid, and the verdict with its reason. */

const TXID = '318175b67a09e6fbd8bf420c7e16dd715648021a1b95751317501a6c1bbe700f';

export const outputAnswer = z.object({
  vout: z.number().int(),
  satoshis: z.number().int(),
  address: z.string().nullable().describe('The P2PKH address in the network’s form; null for another script'),
  script: z.string(),
});

export const linesCheck = z.object({
  status: z.enum(['unknown', 'match', 'mismatch']).describe('unknown when no order lines were given'),
  items: z
    .array(
      z.object({
        item_id: z.string().nullable(),
        name: z.string(),
        quantity: z.number().int(),
        unit_price_minor: z.number().int(),
        currency: z.string(),
      }),
    )
    .nullable(),
});

export const receiptVerification = named(
  'ReceiptVerification',
  z.object({
    txid: z.string(),
    merchant: z.string(),
    reference: z.string(),
    lines_hash: z.string(),
    receipt_vout: z.number().int(),
    paid_outputs: z.array(outputAnswer),
    status: z.enum(['pending', 'seen', 'mined', 'rejected', 'double_spend', 'unknown']),
    block_height: z.number().int().nullable(),
    block_hash: z.string().nullable(),
    confirmations: z.number().int(),
    merkle_proof: z.enum(['valid', 'invalid', 'missing']).nullable().describe('null until mined'),
    lines: linesCheck,
    verified: z.boolean(),
    why: z.string(),
  }),
  {
    txid: TXID,
    merchant: 'cafe@example.com',
    reference: 'BB-20260302-0042',
    lines_hash: '5ea44c3961f16643e614435496b16115aa6d75458b5cc3fd5398aae291f3126b',
    receipt_vout: 1,
    paid_outputs: [
      {
        vout: 0,
        satoshis: 1928125,
        address: '1NjCAJjzaniT3T22jyfU6NiWoPssArS4tR',
        script: '76a914ee556d99a810480b1058828e7298643c2ff0a2e788ac',
      },
    ],
    status: 'mined',
    block_height: 938412,
    block_hash: '000000000000000003a1f5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7',
    confirmations: 3,
    merkle_proof: 'valid',
    lines: {
      status: 'match',
      items: [
        { item_id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31', name: 'Oat milk latte', quantity: 1, unit_price_minor: 575, currency: 'USD' },
      ],
    },
    verified: true,
    why: "Mined in block 938412 with a merkle path to the chain's block header; and the order lines match its hash.",
  },
);
