import { AppError, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { openIdentifier } from '../cards/card-identifier.js';
import { DEFAULT_PASS_COLOURS, type PassContent } from '../passes/pass-content.js';
import { getOrgLoyaltyCard, withProgram } from './get-loyalty-card.js';

export const PKPASS_MEDIA_TYPE = 'application/vnd.apple.pkpass';

export type LoyaltyPassRequest = {
  cardId: string;
  platform: string;
  publicUrl: string;
  /** The organisation's name, as the pass shows it (its handle when not given). */
  merchantName: string;
  /** The caller, when they ask as the card's holder; empty when they ask as the organisation's staff. */
  holderUserId: string;
};

export type LoyaltyPass = { platform: 'apple'; body: Buffer } | { platform: 'google'; saveUrl: string; jwt: string };

/**
 * A wallet pass of the organisation's loyalty card (docs/decisions/0017-customer-cards.md, "Wallet passes"):
 * the stamps, the reward and a QR of the identifier. The gateway lets the holder and the organisation's
 * staff ask; what it decided on is checked here on the row whose identifier the pass shows: the card is the
 * organisation's and, for a holder, still held by them (a transfer since: not found, as an unknown card).
 */
export async function getLoyaltyPass(cards: CardContext, org: Org, request: LoyaltyPassRequest): Promise<LoyaltyPass> {
  if (request.platform !== 'apple' && request.platform !== 'google') {
    throw new AppError('validation_failed', 'platform is "apple" or "google"', { field: 'platform' });
  }
  const card = await getOrgLoyaltyCard(cards, org, request.cardId);
  if (request.holderUserId && card.holderUserId !== request.holderUserId) throw new AppError('not_found', 'No such loyalty card');
  const identifier = openIdentifier(await cards.cardKey(), card.id, card.identifierSealed);
  if (identifier === undefined) {
    // Sealed under another key (POS_CARD_KEY changed): staff re-key the card (a transfer) for a new identifier.
    throw new AppError('failed_precondition', 'The card needs a new identifier before it has a pass: staff transfer it to re-key it.');
  }
  const { program } = await withProgram(cards, card);
  const content: PassContent = {
    cardId: card.id,
    merchantName: request.merchantName || card.merchantHandle,
    merchantHandle: card.merchantHandle,
    stamps: card.stamps,
    stampsForReward: program.stampsForReward,
    reward: program.reward,
    identifier,
    colours: DEFAULT_PASS_COLOURS,
    publicUrl: request.publicUrl,
  };
  if (request.platform === 'apple') return { platform: 'apple', body: await cards.passes.apple(content) };
  return { platform: 'google', ...(await cards.passes.google(content)) };
}
