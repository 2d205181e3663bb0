import type { PrepaidActivity, PrepaidCard } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import { minorUnitsOf } from '../routes/answer-schema.js';
import type { PrepaidCardAnswer, prepaidActivity, PublicPrepaidCardAnswer } from './prepaid-card-answers.js';

/** A card as anyone sees it, by its id or identifier: status and balance, nothing else. */
export function publicPrepaidCardView(card: PrepaidCard | undefined): PublicPrepaidCardAnswer {
  const known = present(card);
  return {
    id: known.id,
    merchant_handle: known.merchantHandle,
    currency: known.currency,
    status: known.status as PublicPrepaidCardAnswer['status'],
    balance_minor: minorUnitsOf(known.balanceMinor),
    identifier_last4: known.identifierLast4,
  };
}

/**
 * A card as its organisation's staff see it: with its holder's address and public key and its ledger; the
 * identifier only when pos answered it (the card was just issued or re-keyed), never the holder's user id.
 */
export function staffPrepaidCardView(card: PrepaidCard | undefined): PrepaidCardAnswer {
  const known = present(card);
  return {
    ...publicPrepaidCardView(known),
    initial_minor: minorUnitsOf(known.initialMinor),
    identifier: known.identifier || null,
    order_number: known.orderNumber,
    created_at: known.createdAt,
    activated_at: known.activatedAt || null,
    holder: { address: known.holder?.address || null, public_key: known.holder?.publicKey || null },
    activities: known.activities.map(activityView),
  };
}

/** A card as its holder (or its buyer) sees it: as staff do, with the identifier they show at the counter. */
export function holderPrepaidCardView(card: PrepaidCard | undefined): PrepaidCardAnswer {
  return staffPrepaidCardView(card);
}

export function activityView(activity: PrepaidActivity | undefined): z.output<typeof prepaidActivity> {
  if (!activity) throw new AppError('internal', 'pos answered without the activity');
  return {
    sequence: Number(activity.sequence),
    kind: activity.kind as z.output<typeof prepaidActivity>['kind'],
    amount_minor: minorUnitsOf(activity.amountMinor),
    balance_after_minor: minorUnitsOf(activity.balanceAfterMinor),
    order_number: activity.orderNumber || null,
    occurred_at: activity.occurredAt,
  };
}

function present(card: PrepaidCard | undefined): PrepaidCard {
  if (!card) throw new AppError('internal', 'pos answered without the prepaid card');
  return card;
}
