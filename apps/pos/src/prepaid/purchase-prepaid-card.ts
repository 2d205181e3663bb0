import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { PurchasePrepaidCardRequest } from '@ctk/proto/ctk/pos/v1/cards';
import { invalidInput, type Org } from '@ctk/shared';
import type { CardContext } from '../cards/card-context.js';
import { issuePrepaidCard, type IssuedCard } from './issue-prepaid-card.js';

/**
 * A customer buys a prepaid card of a shop (decision 0017), any shop, without a role: pos issues it as staff
 * would, but decides who holds it. The buyer (their user id), or for a gift `to` (an address or a key) or
 * nobody: whoever the buyer hands the identifier to. `to` names a gift's holder only.
 */
export async function purchasePrepaidCard(
  cards: CardContext,
  orgRef: Partial<OrgRef>,
  org: Org,
  { gift, to, userId, ...purchase }: Omit<PurchasePrepaidCardRequest, 'org'>,
): Promise<IssuedCard> {
  if (to && !gift) throw invalidInput([{ field: 'to', message: 'to names the holder of a gift: send "gift": true with it' }], 'body');
  const holder = gift ? { ...to, userId: '' } : { userId };
  return issuePrepaidCard(cards, orgRef, org, { ...purchase, holder, createdBy: userId, staff: false });
}
