import type { CheckoutContext } from '../checkouts/checkout-context.js';
import type { TicketRepository } from '../data/ticket-repository.js';

/** What the ticket use cases are given: the checkout context and the ticket repository. */
export type TicketContext = CheckoutContext & { tickets: TicketRepository };
