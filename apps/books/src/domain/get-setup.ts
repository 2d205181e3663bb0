import { type Org } from '@ctk/shared';
import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import type { JournalRepository } from '../data/journal-repository.js';
import type { TaxSettingsRepository } from '../data/tax-settings-repository.js';
import { findJurisdiction } from '../tax/rate-in-force.js';

/** The next step for each capability books owns, shown while it is not set up. */
const NEXT_STEPS = {
  ledger: 'Take a first payment: every paid order becomes a journal entry here.',
  sales_tax:
    'Choose your tax jurisdiction (GET /api/v1/tax/jurisdictions lists them): PATCH /api/v1/organizations/:handle with jurisdiction.',
  receipts:
    "Take a first payment: the customer's wallet writes its receipt on chain, and GET /api/v1/receipts/:txid verifies the purchase from its txid.",
  reports:
    'Take a first payment: then GET /api/v1/orgs/:handle/reports/sales shows your sales by day or month (top-items and busy-hours too).',
};

type Capability = keyof typeof NEXT_STEPS;

/**
 * The ledger and the reports are set up once the organisation has its first journal entry, sales tax
 * once it has chosen a jurisdiction of the tax table; receipts with its first payment, whose transaction carries one.
 */
export async function getSetup(journal: JournalRepository, taxSettings: TaxSettingsRepository, org: Org): Promise<CapabilitySetup[]> {
  const [hasEntries, tax] = await Promise.all([journal.hasAny(org.id), taxSettings.find(org.id)]);
  const setUp: Record<Capability, boolean> = {
    ledger: hasEntries,
    sales_tax: tax.jurisdiction !== null && findJurisdiction(tax.jurisdiction) !== undefined,
    receipts: hasEntries,
    reports: hasEntries,
  };
  return (Object.keys(NEXT_STEPS) as Capability[]).map((id) => ({
    capabilityId: id,
    setUp: setUp[id],
    nextStep: setUp[id] ? '' : NEXT_STEPS[id].replace(':handle', org.handle),
  }));
}
