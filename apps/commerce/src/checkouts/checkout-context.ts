import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { CheckoutRepository } from '../data/checkout-repository.js';
import type { TicketRepository } from '../data/ticket-repository.js';
import type { PosClient } from '../pos-client.js';

/** What the checkout use cases are given. */
export type CheckoutContext = {
  pos: PosClient;
  catalogs: CatalogReader;
  checkouts: CheckoutRepository;
  now: () => Date;
  /** Ticket catalogs, seat holds and tickets (decision 0020). */
  tickets: TicketRepository;
};
