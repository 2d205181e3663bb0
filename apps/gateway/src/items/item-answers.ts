import { z } from 'zod';
import { named, pageOf } from '../routes/answer-schema.js';

/** What the item routes answer: the organisation's items as the pos service keeps them, prices in minor units. */

const EXAMPLE_ITEM = {
  id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31',
  name: 'Oat milk latte',
  description: 'Double shot, 12 oz',
  price_cents: 575,
  currency: 'USD',
  category: 'coffee',
  sku: 'LAT-OAT-12',
  available: true,
  created_at: '2026-03-02T09:30:00.000Z',
};

export const item = named(
  'Item',
  z.object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    price_cents: z.number().int().describe('Minor units of currency'),
    currency: z.string(),
    category: z.string().nullable(),
    sku: z.string().nullable(),
    available: z.boolean(),
    created_at: z.string(),
  }),
  EXAMPLE_ITEM,
);
export type ItemAnswer = z.infer<typeof item>;
export const itemPage = pageOf('Item', item);
