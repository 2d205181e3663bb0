import type { ReleaseDestinationRequest, ReleaseDestinationResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, orgOf } from '@ctk/shared';
import { releaseDerivationIndex } from '../data/release-derivation-index.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { purposeOf } from './allocate-destination.js';

/**
 * Ends the hold of a child AllocateDestination handed out (decision 0022), when what it was for can only
 * refund a payment to it. The hold is named by the child, the `expires_at` and the purpose it was allocated
 * with; one already ended, or handed out again since, is left as it is (`released` false).
 */
export async function releaseDestination(prisma: PrismaClient, request: ReleaseDestinationRequest): Promise<ReleaseDestinationResponse> {
  const org = orgOf(request.org);
  if (!Number.isInteger(request.derivationIndex) || request.derivationIndex < 0)
    throw new AppError('validation_failed', 'derivation_index must be the child AllocateDestination answered', {
      field: 'derivation_index',
    });
  const heldUntil = new Date(request.expiresAt);
  if (!request.expiresAt || Number.isNaN(heldUntil.getTime()))
    throw new AppError('validation_failed', 'expires_at must be the RFC 3339 date-time the destination was allocated with', {
      field: 'expires_at',
    });
  const released = await releaseDerivationIndex(prisma, {
    organizationId: org.id,
    derivationIndex: request.derivationIndex,
    heldUntil,
    purpose: purposeOf(request.purpose),
  });
  return { released };
}
