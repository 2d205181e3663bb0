import type { Checkout, IssuedTicket, TicketEvent, TicketOrder } from '@ctk/proto/ctk/commerce/v1/commerce';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import { checkoutView } from '../commerce/checkout-view.js';
import type { issuedTicket } from '../commerce/commerce-answers.js';
import { minorUnitsOf } from '../routes/answer-schema.js';
import type { ticketCheckout, ticketList, ticketOrder } from './ticket-answers.js';

const minor = minorUnitsOf;

export function issuedTicketView(ticket: IssuedTicket, publicUrl: string): z.output<typeof issuedTicket> {
  return {
    code: ticket.code,
    event_id: ticket.eventId,
    event_name: ticket.eventName,
    ticket_type_id: ticket.ticketTypeId,
    ticket_type_name: ticket.ticketTypeName,
    qr_url: `${publicUrl}/api/v1/tickets/${ticket.code}/qr`,
    checked_in_at: ticket.checkedInAt || null,
  };
}

const eventFields = (event: TicketEvent) => ({
  id: event.id,
  name: event.name,
  starts_at: event.startsAt,
  ends_at: event.endsAt,
  venue: event.venue,
});

/** The list for a shopper: what is left to buy, not the capacity nor the sales. */
export function ticketListView(events: TicketEvent[]): z.output<typeof ticketList> {
  return {
    events: events.map((event) => ({
      ...eventFields(event),
      ticket_types: event.ticketTypes.map((type) => ({
        id: type.id,
        name: type.name,
        price_minor: minor(type.priceMinor),
        currency: type.currency,
        available: type.available,
        sold_out: type.available === 0,
      })),
    })),
  };
}

/** A ticket checkout: the checkout's answer, its order's lines named by the ticket types asked for (pos keeps their order). */
export function ticketCheckoutView(checkout: Checkout | undefined, publicUrl: string, typeIds: string[]): z.output<typeof ticketCheckout> {
  const { lines: _itemLines, ...answer } = checkoutView(checkout, publicUrl);
  const lines = checkout!.order!.lines;
  if (lines.length !== typeIds.length) throw new AppError('internal', 'commerce answered another number of lines than asked for');
  return {
    ...answer,
    lines: lines.map((line, index) => ({
      ticket_type_id: typeIds[index]!,
      name: line.name,
      quantity: Number(line.quantity),
      unit_price_minor: minor(line.unitPriceMinor),
      tax_minor: minor(line.taxMinor),
      total_minor: minor(line.totalMinor),
    })),
  };
}

export function ticketOrderView(order: TicketOrder, publicUrl: string): z.output<typeof ticketOrder> {
  return {
    id: order.id,
    order_number: order.orderNumber,
    status: order.status as z.output<typeof ticketOrder>['status'],
    hold: order.hold as z.output<typeof ticketOrder>['hold'],
    currency: order.currency,
    total_minor: minor(order.totalMinor),
    lines: order.lines.map((line) => ({
      ticket_type_id: line.ticketTypeId,
      event_name: line.eventName,
      ticket_type_name: line.ticketTypeName,
      quantity: Number(line.quantity),
      unit_price_minor: minor(line.unitPriceMinor),
    })),
    tickets: order.tickets.map((ticket) => issuedTicketView(ticket, publicUrl)),
    created_at: order.createdAt,
    expires_at: order.expiresAt,
    paid_at: order.paidAt || null,
  };
}
