import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';

/** The next step for each capability p2p owns. None is built yet, so none is set up for any organisation. */
const NEXT_STEPS = {
  paygate_402:
    'Pay-per-request gates become available in a later release; the p2p service does not price resources yet.',
  paymail: 'Paymail becomes available in a later release; the p2p service does not resolve payment names yet.',
  wallet_api:
    'The wallet API becomes available in a later release; the p2p service does not list coins or broadcast transactions yet.',
};

export function getSetup(): CapabilitySetup[] {
  return Object.entries(NEXT_STEPS).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: false, nextStep }));
}
