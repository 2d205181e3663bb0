import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import type { Org } from '@ctk/shared';
import type { PrismaClient } from '../generated/prisma/client.js';

/** Each capability federation owns, set up or not for the organisation, with its next step. */
export async function getSetup(prisma: PrismaClient, org: Org): Promise<CapabilitySetup[]> {
  const [hours, feed] = await Promise.all([
    prisma.shopHours.findUnique({ where: { organizationId: org.id }, select: { organizationId: true } }),
    prisma.feed.findUnique({ where: { organizationId: org.id }, select: { id: true } }),
  ]);
  return [
    {
      capabilityId: 'open_sign',
      setUp: hours !== null,
      nextStep: hours ? '' : 'Set your opening hours (PUT /api/v1/orgs/:handle/hours) so the open sign can say when you are open.',
    },
    {
      capabilityId: 'federated_marketplace',
      setUp: feed !== null,
      nextStep: feed
        ? ''
        : 'Publish your catalog feed (POST /api/v1/feeds with your org_handle) so customers on every instance can find you.',
    },
  ];
}
