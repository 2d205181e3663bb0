import { PrepaidCard, type PrepaidActivity } from '@ctk/proto/ctk/pos/v1/cards';
import { holderMessage } from '../cards/card-holder.js';
import type { PrepaidActivityRow, PrepaidCard as PrepaidCardFields, PrepaidCardRow } from '../data/prepaid-card-repository.js';

/**
 * The card as the contract answers it, with its identifier only when given (to whoever creates or re-keys
 * it, and to its holder). Holder, activities and the organisation's id are for the gateway's staff and
 * holder views; its public view leaves them out.
 */
export function toPrepaidCardMessage(card: PrepaidCardRow, identifier = ''): PrepaidCard {
  return {
    id: card.id,
    merchantHandle: card.merchantHandle,
    currency: card.currency,
    status: card.status,
    balanceMinor: card.balanceMinor,
    initialMinor: card.initialMinor,
    identifierLast4: card.identifierLast4,
    identifier: identifier || undefined,
    orderNumber: card.sellingOrder?.orderNumber ?? '',
    createdAt: card.createdAt.toISOString(),
    activatedAt: card.activatedAt?.toISOString(),
    holder: holderMessage({ address: card.holderAddress, publicKey: card.holderPublicKey, userId: card.holderUserId }),
    // Read newest first (the latest few); answered in the ledger's order.
    activities: [...(card.activities ?? [])].reverse().map(toPrepaidActivityMessage),
    organizationId: card.organizationId,
  };
}

/**
 * The card as anyone may see it, wherever it shows beside something public (a POS card): the public lookup's
 * fields only (id, merchant, currency, status, balance, the identifier's last 4), the rest left empty.
 */
export function toPublicPrepaidCardMessage(card: PrepaidCardRow | PrepaidCardFields): PrepaidCard {
  const { id, merchantHandle, currency, status, balanceMinor, identifierLast4 } = toPrepaidCardMessage({ sellingOrder: null, ...card });
  return PrepaidCard.fromPartial({ id, merchantHandle, currency, status, balanceMinor, identifierLast4 });
}

export function toPrepaidActivityMessage(activity: PrepaidActivityRow): PrepaidActivity {
  return {
    sequence: activity.sequence,
    kind: activity.kind,
    amountMinor: activity.amountMinor,
    balanceAfterMinor: activity.balanceAfterMinor,
    orderNumber: activity.order?.orderNumber,
    occurredAt: activity.occurredAt.toISOString(),
  };
}
