import { runService } from '@ctk/shared';
import { localChainConfigSchema } from './config.js';
import { startLocalChain } from './start-local-chain.js';

await runService({
  name: 'local-chain',
  schema: localChainConfigSchema,
  start: async (config, logger) => {
    const running = await startLocalChain({
      dataDir: config.CHAIN_STORE === 'memory' ? undefined : config.CTK_DATA_DIR,
      host: config.CHAIN_HOST,
      port: config.CHAIN_PORT,
      minFeeSatsPerKb: config.CHAIN_MIN_FEE_SATS_PER_KB,
      faucetMaxSatoshis: config.CHAIN_FAUCET_MAX_SATOSHIS,
      mineIntervalMs: config.CHAIN_MINE_INTERVAL_MS,
      logger,
    });
    logger.info({ arc: running.url, woc: running.wocUrl, faucet: `${running.url}/faucet` }, 'local chain ready');
    return running;
  },
});
