import { AppError, type CallOptions } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';

/**
 * Whether prices include tax when the organisation has not said: where shelf prices are shown before
 * tax (US sales tax, Canadian GST/HST) they exclude it; where VAT or GST is shown in the price (EU, UK,
 * Australia, New Zealand) they include it. Without a jurisdiction there is no tax to include.
 */
export function defaultPricesIncludeTax(jurisdiction: string | null): boolean {
  return jurisdiction !== null && !/^(US|CA)(-|$)/.test(jurisdiction);
}

/** The organisation's choice, else the default for its jurisdiction. */
export function pricesIncludeTax(org: { jurisdiction: string | null; pricesIncludeTax: boolean | null }): boolean {
  return org.pricesIncludeTax ?? defaultPricesIncludeTax(org.jurisdiction);
}

/**
 * Asks books whether it has a rate for the jurisdiction, before anything is written: an unknown code
 * is a 422 on the `jurisdiction` field with books' message (the code format and where the list is);
 * books not answering is its own error (503), never a guess.
 */
export async function checkJurisdiction(deps: GatewayDeps, code: string | undefined, options: CallOptions): Promise<void> {
  if (code === undefined) return;
  try {
    await deps.services.books.getTaxRate({ jurisdiction: code }, options);
  } catch (error) {
    if (!AppError.is(error) || error.code !== 'not_found') throw error;
    throw new AppError('validation_failed', `Invalid body: jurisdiction: ${error.message}`, {
      field: 'jurisdiction',
      issues: [{ field: 'jurisdiction', message: error.message }],
    });
  }
}
