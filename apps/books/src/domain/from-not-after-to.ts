import type { z } from 'zod';

/**
 * The one date-range rule of the reports and the ledger: `from` must not be after `to`, named on `from`.
 * Either bound may be empty (an open end), which nothing is after. Answers whether the range passed.
 */
export function checkFromNotAfterTo(range: { from: string; to: string }, context: z.RefinementCtx): boolean {
  if (!range.from || !range.to || range.from <= range.to) return true;
  context.addIssue({ code: 'custom', message: 'from must not be after to', path: ['from'] });
  return false;
}
