import { fileURLToPath } from 'node:url';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { createGrpcClient, defineService, keptKey, type ServiceContext, type ServiceParts } from '@ctk/shared';
import { configSchema, type Config } from './config.js';
import type { CardContext } from './cards/card-context.js';
import { createOcrReader } from './analyze/ocr-reader.js';
import { createItemRepository } from './data/item-repository.js';
import { createOrderRepository } from './data/order-repository.js';
import { createPayLinkRepository } from './data/pay-link-repository.js';
import { createPosCardRepository } from './data/pos-card-repository.js';
import { createMenuRepository } from './data/menu-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import { posService } from './grpc/pos-service.js';
import type { OrderContext } from './orders/order-context.js';
import { createOrderNotifier } from './orders/order-notifier.js';
import { orderTaxes } from './orders/order-tax.js';
import { startOrderWatcher } from './orders/order-watcher.js';
import { oneAtATime } from './pay-links/one-at-a-time.js';
import type { PayLinkContext } from './pay-links/pay-link-context.js';
import { createPassMaker } from './passes/pass-maker.js';
import { priceSource } from './rates/price-source.js';

export { configSchema, type Config } from './config.js';

/**
 * The pos service: PosService over gRPC on its own database (items, the menu, orders, pay links, customer cards), item drafts
 * read from text, CSV or a menu photo, relaying its outbox of
 * payment events, calling books (tax rates) and p2p (payment outputs, settlement, chain reads), and
 * watching open orders' addresses while it runs. A test may give the clock.
 */
export const service = defineService<Config, PrismaClient, PosOptions>({
  name: 'pos',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  emits: true,
  build: (context, options) => buildPos(context, options).parts,
});

export type PosOptions = { now: () => Date };

/** The contexts pos's features run in, and the parts the bootstrap serves and closes (tests build it too, to look inside). */
export function buildPos(
  { config, prisma, sql, logger, eventsCommitted, announcements }: ServiceContext<Config, PrismaClient>,
  options: Partial<PosOptions>,
): { orders: OrderContext; payLinks: PayLinkContext; cards: CardContext; parts: ServiceParts } {
  const books = createGrpcClient(BooksServiceDefinition, config.BOOKS_GRPC_URL);
  const p2p = createGrpcClient(P2pServiceDefinition, config.P2P_GRPC_URL);
  const orders: OrderContext = {
    prisma,
    sql,
    orders: createOrderRepository(prisma, sql),
    taxes: orderTaxes({ books, announcements, keepSeconds: config.POS_TAX_KEEP_SECONDS }),
    p2p,
    prices: priceSource(config),
    notifier: createOrderNotifier(),
    eventsCommitted,
    logger,
    network: config.CHAIN_NETWORK,
    ttlSeconds: config.POS_ORDER_TTL_SECONDS,
    latePaymentSeconds: config.POS_LATE_PAYMENT_SECONDS,
    now: options.now ?? (() => new Date()),
  };
  const payLinks: PayLinkContext = {
    orders,
    links: createPayLinkRepository(prisma),
    signingKey: keptKey(prisma.signingKey, 'pay_link_hmac', config.POS_PAY_LINK_KEY),
    openings: oneAtATime(),
    opensPerClient: config.POS_PAY_LINK_OPENS_PER_CLIENT,
  };
  const cards: CardContext = {
    orders,
    cardKey: keptKey(prisma.signingKey, 'card_identifier', config.POS_CARD_KEY),
    network: config.CHAIN_NETWORK,
    posCards: createPosCardRepository(prisma),
    passes: createPassMaker(config, logger),
  };
  const watcher = config.POS_WATCH_INTERVAL_MS > 0 ? startOrderWatcher(orders, config.POS_WATCH_INTERVAL_MS) : undefined;
  const ocr = createOcrReader({ timeoutMs: config.POS_OCR_TIMEOUT_MS, maxWaiting: config.POS_OCR_MAX_WAITING, logger });
  const parts: ServiceParts = {
    grpc: posService({
      items: createItemRepository(prisma, { firstPageTtlMs: config.POS_ITEMS_CACHE_MS }),
      menus: createMenuRepository(prisma),
      orders,
      ocr,
      payLinks,
      cards,
    }),
    async close() {
      await watcher?.stop();
      orders.taxes.stop();
      books.close();
      p2p.close();
      // The OCR worker thread would keep the process alive.
      await ocr.close();
    },
  };
  return { orders, payLinks, cards, parts };
}
