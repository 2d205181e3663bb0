import { fileURLToPath } from 'node:url';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { createGrpcClient, defineService } from '@ctk/shared';
import { configSchema, type Config } from './config.js';
import { createDiscoveryQueries } from './data/discovery-queries.js';
import { PrismaClient } from './generated/prisma/client.js';
import { federationService } from './grpc/federation-service.js';
import { instanceIdentity } from './instance/instance-identity.js';
import { createPeerClient } from './peers/peer-client.js';
import { startFederationRounds } from './peers/federation-round.js';

export { configSchema, type Config } from './config.js';

/** How often the federation loop looks for peers that are due (each is visited every FEDERATION_PULL_INTERVAL_MS). */
const MAX_TICK_MS = 5_000;

/**
 * The federation service (docs/decisions/0034-federation.md): shops' hours and open signs, their signed
 * catalog feeds, the peers this instance exchanges feeds with (visited in rounds), discovery over every
 * feed it carries, and pins. It calls pos (a feed's items and rates) and p2p (the merchant's identity key).
 * A test may give the clock.
 */
export const service = defineService<Config, PrismaClient, { now: () => Date }>({
  name: 'federation',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  build: ({ config, prisma, logger }, options) => {
    const now = options.now ?? (() => new Date());
    const pos = createGrpcClient(PosServiceDefinition, config.POS_GRPC_URL);
    const p2p = createGrpcClient(P2pServiceDefinition, config.P2P_GRPC_URL);
    const identity = instanceIdentity(prisma.federationKey, config.FEDERATION_PUBLIC_URL, config.FEDERATION_INSTANCE_KEY);
    const peers = {
      prisma,
      client: createPeerClient(config),
      identity,
      limits: {
        maxPeers: config.FEDERATION_MAX_PEERS,
        peersPerExchange: config.FEDERATION_PEERS_PER_EXCHANGE,
        intervalMs: config.FEDERATION_PULL_INTERVAL_MS || 300_000,
      },
      now,
    };
    const carry = { prisma, identity, peers, maxItems: config.FEDERATION_FEED_MAX_ITEMS, feedsPerPeer: config.FEDERATION_FEEDS_PER_PEER };
    const interval = config.FEDERATION_PULL_INTERVAL_MS;
    const rounds =
      interval > 0
        ? startFederationRounds(
            {
              peers,
              carry,
              seeds: config.FEDERATION_SEED_PEERS,
              feedsPerPull: config.FEDERATION_FEEDS_PER_PULL,
              maxFeedBytes: config.FEDERATION_FEED_MAX_BYTES,
              logger,
            },
            Math.min(interval, MAX_TICK_MS),
          )
        : undefined;
    return {
      grpc: federationService({
        publish: { prisma, pos, p2p, identity, now, logger },
        carry,
        peers,
        discovery: { queries: createDiscoveryQueries(prisma), featured: config.FEDERATION_FEATURED, now },
        pins: {
          prisma,
          limits: {
            anonymousPerDay: config.FEDERATION_ANONYMOUS_PINS_PER_DAY,
            anonymousDays: config.FEDERATION_ANONYMOUS_PIN_DAYS,
            perUser: config.FEDERATION_PINS_PER_USER,
          },
          now,
        },
      }),
      close: async () => {
        await rounds?.stop();
        pos.close();
        p2p.close();
      },
    };
  },
});
