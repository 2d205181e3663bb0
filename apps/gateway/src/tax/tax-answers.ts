import { z } from 'zod';
import { named, pageOf } from '../routes/answer-schema.js';

/** What the tax table answers: a jurisdiction an organisation can choose, with its rate on a date. */

export const taxJurisdiction = named(
  'TaxJurisdiction',
  z.object({
    code: z.string(),
    name: z.string(),
    country: z.string(),
    kind: z.string().describe('sales_tax, vat, gst or hst'),
    rate: z.string().describe('A decimal fraction, such as "0.0725" for 7.25%'),
    effective_from: z.string(),
    prices_include_tax: z
      .boolean()
      .describe(
        'Whether shelf prices there include the tax: the default of an organisation’s prices_include_tax when it chooses this jurisdiction',
      ),
  }),
  {
    code: 'US-CA',
    name: 'California (state rate with the 1% statewide local rate; district taxes not included)',
    country: 'US',
    kind: 'sales_tax',
    rate: '0.0725',
    effective_from: '2024-01-01',
    prices_include_tax: false,
  },
);
export type TaxJurisdictionAnswer = z.infer<typeof taxJurisdiction>;
export const taxJurisdictionPage = pageOf('TaxJurisdiction', taxJurisdiction);
