import { runProcess } from '@ctk/shared';
import { localChainConfigSchema, localChainOptions } from './config.js';
import { startLocalChain } from './start-local-chain.js';

await runProcess('local-chain', localChainConfigSchema, async (config, logger) => {
  const running = await startLocalChain({ ...localChainOptions(config), logger });
  logger.info({ arc: running.url, woc: running.wocUrl, faucet: `${running.url}/faucet` }, 'local chain ready');
  return running;
});
