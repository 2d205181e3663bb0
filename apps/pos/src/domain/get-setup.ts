import { type Org } from '@ctk/shared';
import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import type { ItemRepository } from '../data/item-repository.js';
import type { PayLinkRepository } from '../data/pay-link-repository.js';
import { findLoyaltyProgram } from '../data/loyalty-program-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** The next step for each capability pos owns, shown while it is not set up. */
const NEXT_STEPS = {
  pos: (org: Org) => `Add your first item with POST /api/v1/orgs/${org.handle}/items`,
  pay_links: (org: Org) => `Make a link anyone can pay with POST /api/v1/orgs/${org.handle}/pay-links`,
  loyalty: (org: Org) => `Start a stamp card with PUT /api/v1/orgs/${org.handle}/loyalty-program`,
  prepaid_cards: (org: Org) => `Sell a gift card with POST /api/pos/prepaid-cards {"org_handle": "${org.handle}", "amount_minor": 2500}`,
};

type Capability = keyof typeof NEXT_STEPS;

export async function getSetup(
  items: ItemRepository,
  links: PayLinkRepository,
  org: Org,
  prisma: PrismaClient,
  /** Whether the organisation has issued a prepaid card (decision 0017). */
  hasPrepaidCards: (organizationId: string) => Promise<boolean>,
): Promise<CapabilitySetup[]> {
  const setUp: Record<Capability, boolean> = {
    pos: await items.hasAny(org.id),
    pay_links: await links.hasAny(org.id),
    loyalty: (await findLoyaltyProgram(prisma, org.id))?.active === true,
    prepaid_cards: await hasPrepaidCards(org.id),
  };
  return (Object.keys(NEXT_STEPS) as Capability[]).map((id) => ({
    capabilityId: id,
    setUp: setUp[id],
    nextStep: setUp[id] ? '' : NEXT_STEPS[id](org),
  }));
}
