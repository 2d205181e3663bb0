import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import type { EventWithTypes, SeatCounts } from '../data/ticket-repository.js';
import type { TicketContext } from '../tickets/ticket-context.js';

/** The events still to end, in catalog order, and what each ticket type has sold, held and left (decision 0020). */
export async function getTicketList(
  context: TicketContext,
  orgRef: OrgRef | undefined,
): Promise<{ events: EventWithTypes[]; counts: Map<string, SeatCounts> }> {
  const org = orgOf(orgRef);
  const now = context.now();
  const events = await context.tickets.catalog(org.id, now);
  const counts = await context.tickets.seatCounts(
    events.flatMap((event) => event.ticketTypes.map((type) => type.id)),
    now,
  );
  return { events, counts };
}
