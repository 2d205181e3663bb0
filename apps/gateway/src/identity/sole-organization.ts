import { AppError, invalidInput } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';

/**
 * The handle of the organisation a route without :handle acts on when the request names none: the
 * caller's only one. With several the caller must choose (422 naming org_handle); with none, 403.
 */
export async function soleOrganizationHandle(deps: GatewayDeps, userId: string): Promise<string> {
  const memberships = await deps.prisma.membership.findMany({
    where: { userId },
    take: 2,
    select: { organization: { select: { handle: true } } },
  });
  const [only, another] = memberships;
  if (!only) throw new AppError('forbidden', 'You are a member of no organisation: create one with POST /api/v1/organizations first.');
  if (another)
    throw invalidInput([
      {
        field: 'org_handle',
        message: 'you belong to several organisations: name the one this is for (GET /api/v1/organizations lists them)',
      },
    ]);
  return only.organization.handle;
}
