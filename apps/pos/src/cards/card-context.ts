import type { ChainNetwork } from '@ctk/chain';
import type { PosCardRepository } from '../data/pos-card-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import type { PassMaker } from '../passes/pass-maker.js';

/**
 * What the card use cases work with (docs/decisions/0017-customer-cards.md): the order context (pos's
 * database, p2p, the outbox, the clock), the key card identifiers are sealed with, and the chain's network
 * (customers' addresses are in its form).
 */
export type CardContext = {
  orders: OrderContext;
  cardKey(): Promise<Buffer>;
  network: ChainNetwork;
  /** Customers' cards at shops, one per (organisation, address). */
  posCards: PosCardRepository;
  /** Wallet passes of loyalty cards: Apple's .pkpass and Google's save link. */
  passes: PassMaker;
};
