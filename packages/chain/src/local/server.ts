import { runProcess } from '@ctk/shared';
import { localChainConfigSchema, localChainOptions } from './config.js';
import { startLocalChain } from './start-local-chain.js';

await runProcess('local-chain', localChainConfigSchema, async (config, logger) => {
  const running = await startLocalChain({ ...localChainOptions(config), logger });
  const { tokenId, symbol, cosignerPublicKey } = running.chain.stablecoin;
  logger.info(
    {
      arc: running.url,
      woc: running.wocUrl,
      faucet: `${running.url}/faucet`,
      stablecoin: { symbol, token_id: tokenId, cosigner_public_key: cosignerPublicKey, faucet: `${running.wocUrl}/stablecoin/faucet` },
    },
    'local chain ready',
  );
  return running;
});
