import type { Organization } from '../generated/prisma/client.js';
import type { OrganizationAnswer } from './identity-answers.js';
import { pricesIncludeTax } from './tax-settings.js';

/** An organisation as the API shows it to its members. */
export function organizationView(org: Organization, paymailDomain: string): OrganizationAnswer {
  return {
    id: org.id,
    handle: org.handle,
    name: org.name,
    jurisdiction: org.jurisdiction,
    prices_include_tax: pricesIncludeTax(org),
    receiving_address: org.receivingAddress,
    paymail: org.paymailAlias ? `${org.paymailAlias}@${paymailDomain}` : null,
    commerce_public_key: org.commercePublicKey,
    wallet_xpub: org.walletXpub,
    identity_public_key: org.identityPublicKey,
    avatar_url: org.avatarUrl,
    category: org.category,
    location: org.latitude !== null && org.longitude !== null ? { latitude: org.latitude, longitude: org.longitude } : null,
    created_at: org.createdAt.toISOString(),
  };
}
