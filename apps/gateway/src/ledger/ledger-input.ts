import { calendarDate } from '@ctk/shared';
import { z } from 'zod';
import { limitField } from '../routes/pagination.js';
import { handleField } from '../identity/organization-fields.js';

export const LEDGER_FORMATS = ['json', 'csv', 'quickbooks', 'xero', 'hledger', 'beancount'] as const;
export type LedgerFormat = (typeof LEDGER_FORMATS)[number];

export const ledgerParams = z.object({ handle: handleField });

/**
 * `from` and `to` are UTC calendar dates, both included (books refuses `from` after `to`). `limit` and `cursor` page the JSON listing;
 * an export is always the whole range. `xero_tax_rate` names the tax rate Xero puts on each line. An
 * unknown parameter is a 422: a misspelt `from` would otherwise list the whole journal.
 */
export const ledgerQuery = z
  .object({
    from: calendarDate('from').optional(),
    to: calendarDate('to').optional(),
    limit: limitField.optional(),
    cursor: z.string().min(1).max(200).optional(),
    format: z.enum(LEDGER_FORMATS, { error: `format must be one of ${LEDGER_FORMATS.join(', ')}` }).default('json'),
    xero_tax_rate: z.string().trim().min(1).max(60).optional(),
  })
  .strict()
  .refine((q) => q.format === 'json' || (q.limit === undefined && q.cursor === undefined), {
    message: 'limit and cursor page the JSON listing; an export is always the whole date range',
    path: ['cursor'],
  });

export type LedgerQuery = z.infer<typeof ledgerQuery>;
