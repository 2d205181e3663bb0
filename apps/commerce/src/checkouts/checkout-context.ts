import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { CheckoutRepository } from '../data/checkout-repository.js';
import type { ProviderPaymentRepository } from '../data/provider-payment-repository.js';
import type { TicketRepository } from '../data/ticket-repository.js';
import type { Logger } from '@ctk/shared';
import type { PosClient } from '../pos-client.js';
import type { HoldLimits } from '../tickets/ticket-context.js';

/** What the checkout use cases are given. */
export type CheckoutContext = {
  pos: PosClient;
  catalogs: CatalogReader;
  checkouts: CheckoutRepository;
  /** A checkout paid through a provider shows commerce's row (decision 0019). */
  providerPayments: Pick<ProviderPaymentRepository, 'byCheckout'>;
  logger: Logger;
  now: () => Date;
  /** Ticket catalogs, seat holds and tickets (decision 0020). */
  tickets: TicketRepository;
  /** What one anonymous checkout and one client address may hold, and for how long (decision 0024). */
  holdLimits: HoldLimits;
};
