import type { CapabilitySetup, OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import type { ProviderAccountRepository } from '../data/provider-account-repository.js';
import type { SiteRepository } from '../data/site-repository.js';

/** The capabilities commerce owns that are not built yet, and what to tell the merchant. */
const NOT_BUILT = {
  stable_value:
    'Stablecoin pricing becomes available in a later release; the commerce service does not create stablecoin payment intents yet.',
};

/**
 * Each capability commerce owns. The Commerce API needs nothing from commerce (the gateway asks for the
 * commerce key, and orders for a wallet); the site builder, a site published once; cards and wallets need a
 * provider connected (its webhook secret).
 */
export async function getSetup(
  accounts: ProviderAccountRepository,
  sites: Pick<SiteRepository, 'lastPublication'>,
  ref: OrgRef | undefined,
): Promise<CapabilitySetup[]> {
  const org = orgOf(ref);
  const [connected, published] = await Promise.all([accounts.any(org.id), sites.lastPublication(org.id)]);
  return [
    { capabilityId: 'commerce_api', setUp: true, nextStep: '' },
    {
      capabilityId: 'site_builder',
      setUp: published !== null,
      nextStep: published
        ? ''
        : `Choose your site's sections, colours and texts (PUT /api/v1/orgs/${org.handle}/site), then publish it: POST /api/v1/orgs/${org.handle}/site/publish.`,
    },
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
