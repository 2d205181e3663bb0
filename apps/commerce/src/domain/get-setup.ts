import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';

/**
 * Each capability commerce owns, and the next step for those not built yet. The Commerce API is built: it
 * needs nothing from commerce (the gateway asks for the commerce key, and orders for a wallet).
 */
const NEXT_STEPS = {
  commerce_api: '',
  site_builder: 'Site publishing becomes available in a later release; the commerce service does not build sites yet.',
  stable_value:
    'Stablecoin pricing becomes available in a later release; the commerce service does not create stablecoin payment intents yet.',
  cards_and_wallets:
    'Card and wallet providers can be connected in a later release; the commerce service does not take provider payments yet.',
};

export function getSetup(): CapabilitySetup[] {
  return Object.entries(NEXT_STEPS).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: nextStep === '', nextStep }));
}
