import type { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { ChainNetwork } from '@ctk/chain';
import type { GrpcClient, Logger, Sql } from '@ctk/shared';
import type { OrderRepository } from '../data/order-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { PriceSource } from '../rates/exchange-rate.js';
import type { OrderNotifier } from './order-notifier.js';
import type { OrderTaxes } from './order-tax.js';

/** What the order use cases work with: pos's database, the services it calls, the price source, the clock. */
export type OrderContext = {
  prisma: PrismaClient;
  /** The same database, for the hottest statements, sent without Prisma's client (decision 0048). */
  sql: Sql;
  orders: OrderRepository;
  /** Each organisation's tax, as books keeps it (kept here while books announces its changes, decision 0053). */
  taxes: OrderTaxes;
  p2p: GrpcClient<typeof P2pServiceDefinition>;
  prices: PriceSource;
  notifier: OrderNotifier;
  /** Tells the outbox relay a payment event committed. */
  eventsCommitted(): void;
  logger: Logger;
  /** The chain's network: a customer's refund address is in its form (decision 0033). */
  network: ChainNetwork;
  ttlSeconds: number;
  latePaymentSeconds: number;
  now(): Date;
};
