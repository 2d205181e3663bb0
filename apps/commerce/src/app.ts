import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { chainClientOptions, createChainClient } from '@ctk/chain';
import { createGrpcClient, defineService, keptKey, oneAtATime } from '@ctk/shared';
import { createCatalogReader } from './catalog/catalog-reader.js';
import { configSchema, type Config } from './config.js';
import { createCheckoutRepository } from './data/checkout-repository.js';
import { createProviderAccountRepository } from './data/provider-account-repository.js';
import { createProviderPaymentRepository } from './data/provider-payment-repository.js';
import { createSiteRepository } from './data/site-repository.js';
import { createStablecoinRepository } from './data/stablecoin-repository.js';
import { createTicketRepository } from './data/ticket-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import { commerceService } from './grpc/commerce-service.js';
import { followOrderChanges } from './checkouts/follow-order-changes.js';

export { configSchema, type Config } from './config.js';

/**
 * The commerce service: CommerceService over gRPC on its own database (checkouts), calling pos for the
 * catalog and the orders checkouts open (docs/decisions/0018-commerce-checkout.md), ticket catalogs with
 * their seat holds and tickets (docs/decisions/0020-tickets.md), and provider payments, relaying their
 * payment events from its outbox (docs/decisions/0019-provider-payments.md), and consuming pos's order
 * changes, which each checkout records and a ticket checkout's seats follow (decision 0046); and the site
 * builder, publishing a shop's site from its catalog and federation's hours to a folder or a bucket
 * (docs/decisions/0035-site-builder.md); and stablecoin payment intents,
 * each paying a pos order with a token transfer verified on the chain, to an address p2p holds for it alone
 * (docs/decisions/0036-stablecoin-and-tokens.md). A test may give the clock.
 */
export const service = defineService<Config, PrismaClient, { now: () => Date }>({
  name: 'commerce',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  emits: true,
  build: ({ config, prisma, sql, logger, eventsCommitted }, options) => {
    const pos = createGrpcClient(PosServiceDefinition, config.POS_GRPC_URL);
    const federation = createGrpcClient(FederationServiceDefinition, config.FEDERATION_GRPC_URL);
    const p2p = createGrpcClient(P2pServiceDefinition, config.P2P_GRPC_URL);
    const checkouts = createCheckoutRepository(prisma, sql);
    const payments = createProviderPaymentRepository(prisma);
    const tickets = createTicketRepository(prisma);
    const now = options.now ?? (() => new Date());
    const catalogs = createCatalogReader(pos, config.COMMERCE_CATALOG_CACHE_MS);
    // Provider webhook secrets and S3 targets' secrets are sealed with one key, each bound to its owner.
    const secretsKey = keptKey(prisma.commerceKey, 'provider_secrets', config.COMMERCE_SECRETS_KEY);
    const checkoutContext = {
      pos,
      catalogs,
      checkouts,
      tickets,
      providerPayments: payments,
      logger,
      now,
      holdLimits: {
        seatsPerCheckout: config.COMMERCE_TICKET_SEATS_PER_CHECKOUT,
        seatsPerClient: config.COMMERCE_TICKET_SEATS_PER_CLIENT,
        holdMs: config.COMMERCE_TICKET_HOLD_SECONDS * 1000,
      },
    };
    return {
      grpc: commerceService(
        checkoutContext,
        {
          pos,
          checkouts,
          accounts: createProviderAccountRepository(prisma),
          payments,
          tickets,
          secretsKey,
          toleranceSeconds: config.COMMERCE_WEBHOOK_TOLERANCE_SECONDS,
          eventsCommitted,
          logger,
          now,
        },
        {
          sites: createSiteRepository(prisma),
          catalogs,
          hours: async (org, profile) => (await federation.getHours({ org, profile }, { timeoutMs: 10_000 })).hours,
          secretsKey,
          sitesDir: config.COMMERCE_SITES_DIR ?? join(config.CTK_DATA_DIR, 'sites'),
          sitesBaseUrl: config.COMMERCE_SITES_BASE_URL,
          keepVersions: config.COMMERCE_SITES_KEEP_VERSIONS,
          allowPrivateStores: config.COMMERCE_SITE_ALLOW_PRIVATE_STORES,
          logger,
          now,
        },
        {
          intents: createStablecoinRepository(prisma),
          checkouts,
          pos,
          p2p,
          chain: createChainClient(chainClientOptions(config)),
          lateHoldMs: config.COMMERCE_STABLECOIN_LATE_HOLD_SECONDS * 1000,
          settles: oneAtATime(),
          eventsCommitted,
          logger,
          now,
        },
      ),
      // pos's order changes: each checkout records its order's, and ticket checkouts are settled (decision 0046).
      consume: (transport) => followOrderChanges(transport, checkoutContext),
      close: async () => {
        pos.close();
        federation.close();
        p2p.close();
      },
    };
  },
});
