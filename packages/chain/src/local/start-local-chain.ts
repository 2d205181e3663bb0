import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createLogger, type Logger } from '@ctk/shared';
import { arcRoutes } from './arc-routes.js';
import { controlRoutes } from './control-routes.js';
import { LocalChain } from './local-chain.js';
import { scriptCheckEngine, type ScriptChecks } from '../verify/check-input-scripts.js';
import { secp256k1LoadError } from '../verify/load-secp256k1.js';
import { createRouterServer } from './router.js';
import { stablecoinRoutes } from './stablecoin-routes.js';
import { fileStore, memoryStore } from './store.js';
import { tokenIndexerRoutes } from './token-indexer-routes.js';
import { WOC_BASE_PATH, wocRoutes } from './woc-routes.js';

export type StartLocalChainOptions = {
  /** Where blocks, mempool and the faucet key are kept (in `<dataDir>/chain`); absent keeps everything in memory. */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  minFeeSatsPerKb?: number;
  faucetMaxSatoshis?: number;
  /** The most units of the test stablecoin one `POST /v1/bsv/local/stablecoin/faucet` pays. */
  stablecoinFaucetMaxUnits?: bigint;
  /** Mines a block this often while the mempool holds transactions; 0 mines only on request. */
  mineIntervalMs?: number;
  /** `fast` (default): libsecp256k1 for standard P2PKH inputs; `sdk`: @bsv/sdk's interpreter for every input. */
  scriptChecks?: ScriptChecks;
  logger?: Logger;
};

export type RunningLocalChain = {
  /** The base URL of the ARC API and of the control routes. */
  url: string;
  /** The base URL of the WhatsOnChain-compatible API. */
  wocUrl: string;
  chain: LocalChain;
  close(): Promise<void>;
};

export const LOCAL_CHAIN_DEFAULTS = {
  port: 50070,
  minFeeSatsPerKb: 1,
  faucetMaxSatoshis: 1_000_000_000,
  /** 10,000 USDX (5 decimals). */
  stablecoinFaucetMaxUnits: 1_000_000_000n,
} as const;

/**
 * Starts the local chain's HTTP server: ARC and WhatsOnChain subsets, the 1Sat token indexer's `/api/bsv20`
 * subset, the test stablecoin's cosigner and faucet, plus `/mine`, `/faucet` and `/healthz`.
 */
export async function startLocalChain(options: StartLocalChainOptions = {}): Promise<RunningLocalChain> {
  const logger = options.logger ?? createLogger('local-chain', 'warn');
  const minFeeSatsPerKb = options.minFeeSatsPerKb ?? LOCAL_CHAIN_DEFAULTS.minFeeSatsPerKb;
  const scriptChecks = options.scriptChecks ?? 'fast';
  if (scriptChecks === 'fast' && scriptCheckEngine() === 'sdk') {
    logger.warn(
      { error: secp256k1LoadError() },
      "libsecp256k1's bindings did not load: every script runs in @bsv/sdk's interpreter (slower)",
    );
  }
  const store = options.dataDir ? fileStore(join(options.dataDir, 'chain')) : memoryStore();
  const chain = LocalChain.open({
    store,
    minFeeSatsPerKb,
    scriptChecks,
    faucetMaxSatoshis: options.faucetMaxSatoshis ?? LOCAL_CHAIN_DEFAULTS.faucetMaxSatoshis,
    stablecoinFaucetMaxUnits: options.stablecoinFaucetMaxUnits ?? LOCAL_CHAIN_DEFAULTS.stablecoinFaucetMaxUnits,
  });
  const server = createRouterServer(
    [
      ...arcRoutes(chain, minFeeSatsPerKb),
      ...wocRoutes(chain.state),
      ...stablecoinRoutes(chain),
      ...tokenIndexerRoutes(chain.state),
      ...controlRoutes(chain),
    ],
    logger,
  );
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? LOCAL_CHAIN_DEFAULTS.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const miner = options.mineIntervalMs
    ? setInterval(() => {
        if (chain.state.mempoolTxids().length > 0) chain.mine(1);
      }, options.mineIntervalMs)
    : undefined;
  miner?.unref();
  logger.info({ url, store: store.location, height: chain.state.height, scriptChecks }, 'local chain listening');
  return {
    url,
    wocUrl: `${url}${WOC_BASE_PATH}`,
    chain,
    close: async () => {
      clearInterval(miner);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    },
  };
}
