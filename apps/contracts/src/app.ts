import { fileURLToPath } from 'node:url';
import { chainClientOptions, createChainClient } from '@ctk/chain';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { createGrpcClient, defineService } from '@ctk/shared';
import { configSchema, type Config } from './config.js';
import { createEscrowRepository } from './data/escrow-repository.js';
import { createTimelockedRefundRepository } from './data/timelocked-refund-repository.js';
import { createJointRepository } from './data/joint-repository.js';
import { createRedemptionRepository } from './data/redemption-repository.js';
import { createTokenRepository } from './data/token-repository.js';
import { PrismaClient } from './generated/prisma/client.js';
import type { ContractsContext } from './domain/contracts-context.js';
import { contractsService } from './grpc/contracts-service.js';
import { watchRefunds } from './refunds/watch-refunds.js';
import { createReferralRepository } from './data/referral-repository.js';

export { configSchema, type Config } from './config.js';

/**
 * The contracts service: ContractsService over gRPC on its own database (PGlite by default, PostgreSQL at
 * DATABASE_URL), migrated on start. Tokens (docs/decisions/0036-stablecoin-and-tokens.md): it drafts a
 * merchant's mint from the merchant's wallet as p2p knows it, and confirms it on the chain; the merchant's
 * wallet signs. It reads holders and balances from the token indexer, sells credits in pos orders and redeems
 * them against pos orders at addresses p2p holds for them. Jointly signed transactions and escrows
 * (decisions 0037, 0038): it builds and checks, the parties' wallets sign; an escrow's release posts its sale
 * to the books through its outbox. A test may give the clock.
 */
export const service = defineService<Config, PrismaClient, { now: () => Date }>({
  name: 'contracts',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  emits: true,
  build: ({ config, prisma, logger, eventsCommitted }, options) => {
    const p2p = createGrpcClient(P2pServiceDefinition, config.P2P_GRPC_URL);
    const pos = createGrpcClient(PosServiceDefinition, config.POS_GRPC_URL);
    const context: ContractsContext = {
      tokens: createTokenRepository(prisma),
      redemptions: createRedemptionRepository(prisma),
      joints: createJointRepository(prisma),
      escrows: createEscrowRepository(prisma),
      refunds: createTimelockedRefundRepository(prisma),
      referrals: createReferralRepository(prisma),
      p2p,
      pos,
      chain: createChainClient(chainClientOptions(config)),
      feeSatsPerKb: config.CONTRACTS_FEE_SATS_PER_KB,
      logger,
      now: options.now ?? (() => new Date()),
      eventsCommitted,
    };
    // Time-locked refunds past their date are broadcast without anyone asking (decision 0039).
    let round: Promise<void> | undefined;
    const watcher =
      config.CONTRACTS_WATCH_INTERVAL_MS > 0
        ? setInterval(() => {
            round ??= watchRefunds(context).finally(() => (round = undefined));
          }, config.CONTRACTS_WATCH_INTERVAL_MS)
        : undefined;
    watcher?.unref();
    return {
      grpc: contractsService(context),
      close: async () => {
        clearInterval(watcher);
        await round;
        p2p.close();
        pos.close();
      },
    };
  },
});
