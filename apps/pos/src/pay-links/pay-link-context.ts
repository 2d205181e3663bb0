import type { PayLinkRepository } from '../data/pay-link-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import type { OneAtATime } from './one-at-a-time.js';

/** What the pay-link use cases work with: the order context (a payment is an order), the links, pos's signing key. */
export type PayLinkContext = {
  orders: OrderContext;
  links: PayLinkRepository;
  signingKey(): Promise<Buffer>;
  /** Openings of one limited link, one after another in this process. */
  openings: OneAtATime;
  /** Unpaid orders of one limited link one client address may hold at once (decision 0024). */
  opensPerClient: number;
};
