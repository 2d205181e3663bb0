import type { Config } from '../config.js';
import type { Organization } from '../generated/prisma/client.js';
import { paymailDomain } from '../paymail/paymail-domain.js';
import type { OwnerFacts } from './owner-facts.js';

/**
 * An organisation as the contract's Organization (proto/ctk/gateway/v1/identity.proto): the gateway's row,
 * with p2p's wallet and books' tax settings in place of the row's old copies of them (decision 0028).
 */
export function organizationView(config: Pick<Config, 'CTK_PUBLIC_URL'>, org: Organization, facts: OwnerFacts) {
  const { wallet, tax } = facts;
  return {
    ...org,
    jurisdiction: tax.jurisdiction || null,
    pricesIncludeTax: tax.pricesIncludeTax,
    receivingAddress: wallet.receivingAddress || null,
    walletXpub: wallet.walletXpub || null,
    identityPublicKey: wallet.identityPublicKey || null,
    paymail: org.paymailAlias ? `${org.paymailAlias}@${paymailDomain(config)}` : null,
    timeZone: org.timeZone ?? 'UTC',
    location: org.latitude !== null && org.longitude !== null ? { latitude: org.latitude, longitude: org.longitude } : null,
  };
}
