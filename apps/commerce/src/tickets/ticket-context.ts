import type { CheckoutContext } from '../checkouts/checkout-context.js';
import type { TicketRepository } from '../data/ticket-repository.js';

/** What the ticket use cases are given: the checkout context and the ticket repository. */
export type TicketContext = CheckoutContext & { tickets: TicketRepository };

/** How far anonymous seat holds go (decision 0024; COMMERCE_TICKET_* in the config). */
export type HoldLimits = { seatsPerCheckout: number; seatsPerClient: number; holdMs: number };
