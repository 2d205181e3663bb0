import type { CheckoutContext } from '../checkouts/checkout-context.js';
import type { Checkout } from '../data/checkout-repository.js';
import type { TicketWithNames } from '../data/ticket-repository.js';

/**
 * A ticket checkout's seats follow its status as just read from pos (decision 0020): paid (or confirmed)
 * sells them and issues the tickets, once; expired or cancelled gives them back. Answers its tickets.
 */
export async function settleTicketCheckout(context: CheckoutContext, checkout: Checkout): Promise<TicketWithNames[]> {
  const now = context.now();
  if (checkout.status === 'paid' || checkout.status === 'confirmed') {
    await context.tickets.sell(checkout.id, checkout.organizationId, now);
    return context.tickets.ticketsOf(checkout.id);
  }
  if (checkout.status === 'expired' || checkout.status === 'cancelled') await context.tickets.release({ checkoutId: checkout.id }, now);
  return [];
}
