import type { GetLoyaltyPassResponse } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { callOptions, orgRef } from '../routes/service-call.js';

const PASS_TIMEOUT_MS = 20_000;

/**
 * A wallet pass of a loyalty card (docs/decisions/0017-customer-cards.md, "Wallet passes"), for the card's
 * organisation's staff (any role) or its holder (by the caller's user id). Anyone else is answered as for a
 * card that does not exist (404), so a card id tells a stranger nothing. The gateway decides who may ask
 * from its memberships; pos checks it again on the row whose identifier the pass shows (the card is the
 * organisation's and, for a holder, still theirs), so a transfer in between gives the former holder nothing.
 */
export async function getWalletPass(
  deps: GatewayDeps,
  request: FastifyRequest,
  cardId: string,
  platform: 'apple' | 'google',
): Promise<{ pass: GetLoyaltyPassResponse; handle: string }> {
  const { userId } = requireUser(request);
  const pos = deps.services.pos;
  const card = (await pos.getLoyaltyCard({ id: cardId, identifier: '' }, callOptions(request))).card;
  if (!card) throw new AppError('internal', 'pos answered without the card');
  const staff = (await deps.credentials.role(userId, card.organizationId)) !== null;
  const holder = card.holder?.userId === userId;
  const org = staff || holder ? await deps.credentials.orgById(card.organizationId) : null;
  if (!org) throw new AppError('not_found', 'No such loyalty card');
  const pass = await pos.getLoyaltyPass(
    {
      cardId,
      platform,
      publicUrl: deps.config.CTK_PUBLIC_URL,
      org: orgRef(org),
      merchantName: org.name,
      holderUserId: staff ? '' : userId,
    },
    // Each pass is signed in JavaScript (RSA), and the first of a pos without Apple's certificates makes its
    // development ones: seconds, not a read's milliseconds, on a busy machine.
    { ...callOptions(request), timeoutMs: PASS_TIMEOUT_MS },
  );
  return { pass, handle: org.handle };
}
