import type { Logger } from '@ctk/shared';
import type { CheckoutRepository } from '../data/checkout-repository.js';
import type { ProviderAccountRepository } from '../data/provider-account-repository.js';
import type { ProviderPaymentRepository } from '../data/provider-payment-repository.js';
import type { TicketRepository } from '../data/ticket-repository.js';
import type { PosClient } from '../pos-client.js';

/** What the provider payment use cases are given (decision 0019). */
export type ProviderContext = {
  pos: PosClient;
  checkouts: CheckoutRepository;
  accounts: ProviderAccountRepository;
  payments: ProviderPaymentRepository;
  /** A ticket checkout paid through a provider sells its seats and issues its tickets (decision 0020). */
  tickets: TicketRepository;
  /** The AES-256 key provider secrets are sealed with. */
  secretsKey: () => Promise<Buffer>;
  toleranceSeconds: number;
  /** The outbox holds new events: wake the relay. */
  eventsCommitted: () => void;
  logger: Logger;
  now: () => Date;
};
