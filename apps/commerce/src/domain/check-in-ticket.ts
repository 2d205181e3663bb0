import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf } from '@ctk/shared';
import type { TicketWithNames } from '../data/ticket-repository.js';
import { TICKET_CODE } from '../tickets/ticket-code.js';
import type { TicketContext } from '../tickets/ticket-context.js';

/**
 * Checks a ticket in at the door (decision 0020): one conditional update, so of any number of check-ins
 * of one code exactly one succeeds; the others are `already_checked_in` with the time it was. A code (in
 * any case) that cannot be a ticket's is refused naming `code`; one that is not one of the organisation's
 * tickets is not found (another organisation's ticket included); a ticket whose provider payment was
 * refunded in full is refused.
 */
export async function checkInTicket(context: TicketContext, orgRef: OrgRef | undefined, rawCode: string): Promise<TicketWithNames> {
  const org = orgOf(orgRef);
  const code = rawCode.trim().toUpperCase();
  const notFound = () => new AppError('not_found', 'No ticket with this code for this organisation');
  if (!TICKET_CODE.test(code))
    throw new AppError('validation_failed', 'code must be a ticket code: 20 characters of Crockford base32, as its QR code shows it', {
      field: 'code',
    });
  const issued = await context.tickets.ticketByCode(org.id, code);
  if (!issued) throw notFound();
  // Paid through a provider and refunded in full there (decision 0019): the buyer has the money back.
  const payment = await context.providerPayments.byCheckout(issued.checkoutId);
  if (payment && payment.refundedMinor >= payment.amountMinor)
    throw new AppError('failed_precondition', 'This ticket was refunded: it admits nobody', { code, reason: 'refunded' });
  const admitted = await context.tickets.checkIn(org.id, code, context.now());
  const ticket = await context.tickets.ticketByCode(org.id, code);
  if (!ticket) throw notFound();
  if (!admitted) {
    throw new AppError('already_checked_in', `This ticket was checked in at ${ticket.checkedInAt?.toISOString()}`, {
      checked_in_at: ticket.checkedInAt?.toISOString(),
    });
  }
  return ticket;
}
