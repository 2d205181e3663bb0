import { runService } from '@ctk/shared';
import { localChainConfigSchema, localChainOptions } from './config.js';
import { startLocalChain } from './start-local-chain.js';

await runService({
  name: 'local-chain',
  schema: localChainConfigSchema,
  start: async (config, logger) => {
    const running = await startLocalChain({ ...localChainOptions(config), logger });
    logger.info({ arc: running.url, woc: running.wocUrl, faucet: `${running.url}/faucet` }, 'local chain ready');
    return running;
  },
});
