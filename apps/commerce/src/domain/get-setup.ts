import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';

/** The next step for each capability commerce owns. None is built yet, so none is set up for any organisation. */
const NEXT_STEPS = {
  commerce_api: 'The embeddable checkout becomes available in a later release; the commerce service does not create checkouts yet.',
  site_builder: 'Site publishing becomes available in a later release; the commerce service does not build sites yet.',
  stable_value:
    'Stablecoin pricing becomes available in a later release; the commerce service does not create stablecoin payment intents yet.',
  cards_and_wallets:
    'Card and wallet providers can be connected in a later release; the commerce service does not take provider payments yet.',
};

export function getSetup(): CapabilitySetup[] {
  return Object.entries(NEXT_STEPS).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: false, nextStep }));
}
