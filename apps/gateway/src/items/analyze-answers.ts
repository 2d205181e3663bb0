import { z } from 'zod';
import { named } from '../routes/answer-schema.js';

/** What the analysis answers: drafts to review and create as items, nothing saved. */

const EXAMPLE_DRAFT = {
  name: 'Flat white',
  description: '',
  price_cents: 450,
  currency: 'USD',
  category: 'Coffee',
  notes: ['currency assumed USD', 'category "Coffee" from the heading "COFFEE" above'],
};

export const itemDraft = named(
  'ItemDraft',
  z.object({
    name: z.string(),
    description: z.string(),
    price_cents: z.number().int().describe('Minor units of currency (0 when the price was missing: see notes)'),
    currency: z.string(),
    category: z.string(),
    notes: z.array(z.string()).describe('What was guessed, in plain words'),
  }),
  EXAMPLE_DRAFT,
);
export type ItemDraftAnswer = z.infer<typeof itemDraft>;

export const itemDrafts = named(
  'ItemDrafts',
  z.object({
    drafts: z.array(itemDraft),
    source: z.enum(['text', 'csv', 'image']),
    skipped: z.array(z.string()).describe('Lines that made no draft, with why (at most 50)'),
  }),
  {
    drafts: [
      EXAMPLE_DRAFT,
      {
        name: 'Oat milk latte',
        description: '',
        price_cents: 575,
        currency: 'USD',
        category: 'Coffee',
        notes: ['category "Coffee" from the heading "COFFEE" above'],
      },
      {
        name: 'Croissant',
        description: '',
        price_cents: 325,
        currency: 'USD',
        category: 'Pastries',
        notes: ['currency assumed USD', 'category "Pastries" from the heading "Pastries:" above'],
      },
      {
        name: 'Pain au chocolat',
        description: '',
        price_cents: 375,
        currency: 'USD',
        category: 'Pastries',
        notes: [
          'currency assumed USD',
          'price read as 3.75 from "3,75" (a decimal comma)',
          'category "Pastries" from the heading "Pastries:" above',
        ],
      },
    ],
    source: 'text',
    skipped: [],
  },
);
