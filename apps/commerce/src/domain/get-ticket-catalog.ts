import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import type { EventWithTypes, SeatCounts } from '../data/ticket-repository.js';
import type { TicketContext } from '../tickets/ticket-context.js';

/**
 * The whole catalog for its admin (decision 0020), ended events too: what a replacement sends back to keep
 * each event and type, and what each type has sold, held and left.
 */
export async function getTicketCatalog(
  context: TicketContext,
  orgRef: OrgRef | undefined,
): Promise<{ events: EventWithTypes[]; counts: Map<string, SeatCounts> }> {
  const org = orgOf(orgRef);
  const events = await context.tickets.catalog(org.id);
  const counts = await context.tickets.seatCounts(
    events.flatMap((event) => event.ticketTypes.map((type) => type.id)),
    context.now(),
  );
  return { events, counts };
}
