import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';

/** The next step for each capability books owns. None is built yet, so none is set up for any organisation. */
const NEXT_STEPS = {
  ledger: 'Ledger entries appear once payments are recorded; the books service does not record payments yet.',
  sales_tax:
    'Sales tax tracking becomes available in a later release; the books service does not keep tax jurisdictions or rates yet.',
  receipts: 'On-chain receipts become available in a later release; the books service does not index receipts yet.',
  reports: 'Sales reports appear once payments are recorded; the books service does not record payments yet.',
};

export function getSetup(): CapabilitySetup[] {
  return Object.entries(NEXT_STEPS).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: false, nextStep }));
}
