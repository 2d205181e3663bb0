import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';

/** The next step for each capability contracts owns. None is built yet, so none is set up for any organisation. */
const NEXT_STEPS = {
  escrow: '2-of-3 escrow becomes available in a later release; the contracts service does not build escrow contracts yet.',
  timelocked_refund: 'Time-locked refunds become available in a later release; the contracts service does not pre-sign refunds yet.',
  referral_covenant: 'Referral payouts become available in a later release; the contracts service does not create referral links yet.',
  psbt: 'Jointly signed transactions become available in a later release; the contracts service does not build partially signed transactions yet.',
  tokens: 'Token minting becomes available in a later release; the contracts service does not mint tokens yet.',
};

export function getSetup(): CapabilitySetup[] {
  return Object.entries(NEXT_STEPS).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: false, nextStep }));
}
