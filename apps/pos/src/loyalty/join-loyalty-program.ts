import type { JoinLoyaltyProgramRequest } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { createLoyaltyCard } from './create-loyalty-card.js';
import type { LoyaltyCardView } from './loyalty-card-view.js';

/** Where createLoyaltyCard names a holder's field, and the field of the customer's request it stands for. */
const FIELDS: Record<string, string> = { 'holder.address': 'address', 'holder.public_key': 'address', 'holder.user_id': 'org_handle' };

/**
 * A customer takes a card of a shop's program for themselves (POST /api/v1/loyalty-cards): held by their
 * user id and, when they proved a key with a signed bind_card challenge (which the gateway spent, giving
 * `provenKey`), by that key and its address (docs/decisions/0024-proof-holds-and-privacy.md). An address or
 * public key without proof is refused: a card bound to someone else's address would take their stamps at the
 * counter and block their own card. Any user may hold a card at any shop.
 */
export async function joinLoyaltyProgram(
  cards: CardContext,
  org: Org,
  { address, publicKey, provenKey, userId }: Omit<JoinLoyaltyProgramRequest, 'org' | 'proof'>,
): Promise<LoyaltyCardView> {
  if ((address || publicKey) && !provenKey) {
    throw new AppError(
      'validation_failed',
      'An address or public key is bound only with proof that you hold its key: sign a challenge from POST /api/auth/challenge ' +
        '{"did": "did:key:<your public key>", "purpose": "bind_card"} and send {"proof": {"nonce", "signature"}}; or leave them out to hold the card by your account alone.',
      { field: 'proof' },
    );
  }
  if (provenKey && publicKey && publicKey.toLowerCase() !== provenKey) {
    throw new AppError('validation_failed', 'public_key is not the key the proof was signed with.', { field: 'address' });
  }
  try {
    return await createLoyaltyCard(cards, org, { holder: { userId, address, publicKey: provenKey || undefined } });
  } catch (error) {
    // The holder's fields as the staff route spells them; this request has them at its top.
    const field = AppError.is(error) ? FIELDS[String(error.details?.field)] : undefined;
    if (!AppError.is(error) || !field) throw error;
    throw new AppError(error.code, error.message.replaceAll('holder.', ''), { ...error.details, field });
  }
}
