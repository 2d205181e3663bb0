import { AppError, type CallOptions } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import type { JurisdictionDefault } from './organization-fields.js';

/**
 * Asks books about the jurisdiction being chosen, before anything is written, and returns the fields
 * with books' default for it (whether shelf prices include tax there) to store beside the choice. An
 * unknown code is a 422 on the `jurisdiction` field with books' message (the code format and where the
 * list is); books not answering is its own error (503), never a guess.
 */
export async function checkJurisdiction<F extends { jurisdiction?: string | undefined }>(
  deps: GatewayDeps,
  fields: F,
  options: CallOptions,
): Promise<F & JurisdictionDefault> {
  if (fields.jurisdiction === undefined) return fields;
  try {
    const { jurisdiction } = await deps.services.books.getTaxRate({ jurisdiction: fields.jurisdiction }, options);
    if (!jurisdiction) throw new AppError('internal', 'books answered GetTaxRate without the jurisdiction');
    return { ...fields, jurisdictionPricesIncludeTax: jurisdiction.pricesIncludeTax };
  } catch (error) {
    if (!AppError.is(error) || error.code !== 'not_found') throw error;
    throw new AppError('validation_failed', `Invalid body: jurisdiction: ${error.message}`, {
      field: 'jurisdiction',
      issues: [{ field: 'jurisdiction', message: error.message }],
    });
  }
}
