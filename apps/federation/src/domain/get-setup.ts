import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';

/** The next step for each capability federation owns. None is built yet, so none is set up for any organisation. */
const NEXT_STEPS = {
  open_sign: 'The open sign becomes available in a later release; the federation service does not publish opening hours or status yet.',
  federated_marketplace:
    'The federated marketplace becomes available in a later release; the federation service does not publish catalog feeds or exchange peers yet.',
};

export function getSetup(): CapabilitySetup[] {
  return Object.entries(NEXT_STEPS).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: false, nextStep }));
}
