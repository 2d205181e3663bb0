import { createHash } from 'node:crypto';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import type { Logger } from '@ctk/shared';
import type { JournalRepository } from '../data/journal-repository.js';
import type { ParkedEventRepository } from '../data/parked-event-repository.js';
import { buildJournalEntry } from './build-journal-entry.js';
import { CHART_OF_ACCOUNTS } from './chart-of-accounts.js';
import { MAX_EVENT_ID_LENGTH } from './check-payment-event.js';

export type PostOutcome = 'posted' | 'duplicate' | 'parked';
export type PostingDeps = { journal: JournalRepository; parked: ParkedEventRepository; logger: Logger };

/**
 * Posts one payment event as one balanced journal entry, at most once per event id. An event that cannot
 * be posted (invalid, or not balancing) is parked whole, with the reason, and nothing of it is posted.
 */
export async function postPaymentEvent(deps: PostingDeps, event: PaymentEvent): Promise<PostOutcome> {
  const built = buildJournalEntry(event);
  if ('reason' in built) {
    // A copy that cannot be posted of an event that was posted is still that event: a duplicate.
    if (isUsableId(event.id) && (await deps.journal.hasEvent(event.id))) return 'duplicate';
    return park(deps, event, built.reason);
  }
  // The unique event id decides duplicates of a valid event, inside the posting transaction.
  const outcome = await deps.journal.post(built.entry, CHART_OF_ACCOUNTS);
  deps.logger.info(
    { eventId: event.id, organizationId: event.organizationId, outcome },
    outcome === 'posted' ? 'payment event posted' : 'payment event was already posted',
  );
  return outcome;
}

async function park(deps: PostingDeps, event: PaymentEvent, reason: string): Promise<'parked'> {
  const payload = PaymentEvent.encode(event).finish();
  const eventId = isUsableId(event.id) ? event.id : `sha256:${createHash('sha256').update(payload).digest('hex')}`;
  const parkedNow = await deps.parked.park({ eventId, organizationId: event.organizationId, reason, payload });
  const fields = { eventId, organizationId: event.organizationId, type: event.type, reason };
  if (parkedNow) deps.logger.error(fields, 'payment event parked: it cannot be posted');
  else deps.logger.warn(fields, 'payment event delivered again; it stays parked');
  return 'parked';
}

/** An id that can key the journal; an event without one is parked under a hash of its bytes. */
function isUsableId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_EVENT_ID_LENGTH;
}
