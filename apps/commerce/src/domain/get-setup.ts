import type { CapabilitySetup, OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import type { ProviderAccountRepository } from '../data/provider-account-repository.js';

/** The capabilities commerce owns that are not built yet, and what to tell the merchant. */
const NOT_BUILT = {
  site_builder: 'Site publishing becomes available in a later release; the commerce service does not build sites yet.',
  stable_value:
    'Stablecoin pricing becomes available in a later release; the commerce service does not create stablecoin payment intents yet.',
};

/**
 * Each capability commerce owns. The Commerce API needs nothing from commerce (the gateway asks for the
 * commerce key, and orders for a wallet); cards and wallets need a provider connected (its webhook secret).
 */
export async function getSetup(accounts: ProviderAccountRepository, ref: OrgRef | undefined): Promise<CapabilitySetup[]> {
  const org = orgOf(ref);
  const connected = await accounts.any(org.id);
  return [
    { capabilityId: 'commerce_api', setUp: true, nextStep: '' },
    ...Object.entries(NOT_BUILT).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: false, nextStep })),
    {
      capabilityId: 'cards_and_wallets',
      setUp: connected,
      nextStep: connected
        ? ''
        : `Connect a card or wallet provider: PUT /api/v1/orgs/${org.handle}/payment-providers/card-provider with its webhook signing secret.`,
    },
  ];
}
