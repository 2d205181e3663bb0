import type { Organization } from '../generated/prisma/client.js';
import type { OrganizationAnswer } from './identity-answers.js';
import type { OwnerFacts } from './owner-facts.js';

/** An organisation as the API shows it to its members: the gateway's fields, with p2p's wallet and books' tax settings. */
export function organizationView(org: Organization, paymailDomain: string, facts: OwnerFacts): OrganizationAnswer {
  const { wallet, tax } = facts;
  return {
    id: org.id,
    handle: org.handle,
    name: org.name,
    jurisdiction: tax.jurisdiction || null,
    prices_include_tax: tax.pricesIncludeTax,
    receiving_address: wallet.receivingAddress || null,
    paymail: org.paymailAlias ? `${org.paymailAlias}@${paymailDomain}` : null,
    commerce_public_key: org.commercePublicKey,
    wallet_xpub: wallet.walletXpub || null,
    identity_public_key: wallet.identityPublicKey || null,
    avatar_url: org.avatarUrl,
    category: org.category,
    location: org.latitude !== null && org.longitude !== null ? { latitude: org.latitude, longitude: org.longitude } : null,
    created_at: org.createdAt.toISOString(),
  };
}
