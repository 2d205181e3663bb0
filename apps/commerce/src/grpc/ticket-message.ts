import type { IssuedTicket, TicketEvent, TicketOrder } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { EventWithTypes, SeatCounts, TicketWithNames } from '../data/ticket-repository.js';
import type { TicketOrderRow } from '../domain/list-ticket-orders.js';

export function toTicketEventMessages(events: EventWithTypes[], counts: Map<string, SeatCounts>): TicketEvent[] {
  return events.map((event) => ({
    id: event.id,
    name: event.name,
    startsAt: event.startsAt.toISOString(),
    endsAt: event.endsAt.toISOString(),
    venue: event.venue,
    ticketTypes: event.ticketTypes.map((type) => {
      const { sold, held } = counts.get(type.id) ?? { sold: 0, held: 0 };
      const available = Math.max(0, type.capacity - sold - held);
      return {
        id: type.id,
        name: type.name,
        priceMinor: type.priceMinor,
        currency: type.currency,
        capacity: type.capacity,
        sold,
        held,
        available,
        soldOut: available === 0,
      };
    }),
  }));
}

/** A ticket, with its QR code's URL under `publicUrl` (the gateway's base URL for this answer). */
export function toIssuedTicketMessage(ticket: TicketWithNames, publicUrl: string): IssuedTicket {
  return {
    code: ticket.code,
    eventId: ticket.ticketType.eventId,
    eventName: ticket.ticketType.event.name,
    ticketTypeId: ticket.ticketTypeId,
    ticketTypeName: ticket.ticketType.name,
    qrUrl: `${publicUrl.replace(/\/+$/, '')}/api/v1/tickets/${ticket.code}/qr`,
    checkedInAt: ticket.checkedInAt?.toISOString(),
  };
}

/** A ticket checkout for the merchant: its hold summarised (refunded, sold, unfulfilled, held while unexpired, else released). */
export function toTicketOrderMessage(row: TicketOrderRow, now: Date, publicUrl: string): TicketOrder {
  const states = new Set(row.ticketHolds.map((hold) => hold.state));
  const held = row.ticketHolds.some((hold) => hold.state === 'held' && hold.expiresAt > now);
  const hold = states.has('refunded')
    ? 'refunded'
    : states.has('sold')
      ? 'sold'
      : states.has('unfulfilled')
        ? 'unfulfilled'
        : held
          ? 'held'
          : 'released';
  return {
    id: row.id,
    orderNumber: row.orderNumber,
    status: row.status,
    hold,
    currency: row.currency,
    totalMinor: row.totalMinor,
    lines: row.ticketHolds.map((h) => ({
      ticketTypeId: h.ticketTypeId,
      eventName: h.eventName,
      ticketTypeName: h.typeName,
      quantity: BigInt(h.quantity),
      unitPriceMinor: h.unitPriceMinor,
    })),
    tickets: row.tickets.map((ticket) => toIssuedTicketMessage(ticket, publicUrl)),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    paidAt: row.paidAt?.toISOString(),
  };
}
