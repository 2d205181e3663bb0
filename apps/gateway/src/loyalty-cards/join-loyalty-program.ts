import type { LoyaltyCard } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { callOptions, orgRef } from '../routes/service-call.js';

/** Where pos names a holder's field, and the field of this route's body it stands for. */
const FIELDS: Record<string, string> = { 'holder.address': 'address', 'holder.public_key': 'public_key', 'holder.user_id': 'org_handle' };

/**
 * A customer takes a card of a shop's program for themselves (POST /api/v1/loyalty-cards): held by their
 * user id, and by the address or public key they give. The shop is resolved by its handle without a
 * role: any user may hold a card at any shop (404 for a handle no organisation has).
 */
export async function joinLoyaltyProgram(
  deps: GatewayDeps,
  request: FastifyRequest,
  body: { org_handle: string; address?: string | undefined; public_key?: string | undefined },
): Promise<LoyaltyCard | undefined> {
  const { userId } = requireUser(request);
  const org = await deps.credentials.org(body.org_handle);
  if (!org) throw new AppError('not_found', `No organisation with handle "${body.org_handle}".`, { field: 'org_handle' });
  try {
    const response = await deps.services.pos.createLoyaltyCard(
      { org: orgRef({ ...org, role: null }), holder: { userId, address: body.address ?? '', publicKey: body.public_key ?? '' } },
      callOptions(request),
    );
    return response.card;
  } catch (error) {
    // pos names the holder's fields as the staff route spells them; this route takes them at the top of the body.
    const field = AppError.is(error) ? FIELDS[String(error.details?.field)] : undefined;
    if (!AppError.is(error) || !field) throw error;
    throw new AppError(error.code, error.message.replaceAll('holder.', ''), { ...error.details, field });
  }
}
