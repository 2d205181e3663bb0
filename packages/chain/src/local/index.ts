export { startLocalChain, LOCAL_CHAIN_DEFAULTS, type StartLocalChainOptions, type RunningLocalChain } from './start-local-chain.js';
export type { ScriptChecks } from '../verify/check-input-scripts.js';
export { localChainConfigSchema, localChainOptions, type LocalChainConfig } from './config.js';
export {
  LocalChain,
  type ArcTxStatus,
  type ClockReading,
  type FaucetPayment,
  type StablecoinFaucetPayment,
  type SubmitOutcome,
} from './local-chain.js';
export { STABLECOIN_SYMBOL, STABLECOIN_DECIMALS, STABLECOIN_SUPPLY, type LocalStablecoin } from './stablecoin.js';
export type { CosignRefusal } from './cosigner.js';
export { TOKEN_INDEXER_BASE_PATH } from './token-indexer-routes.js';
export { WOC_BASE_PATH } from './woc-routes.js';
export { ARC_ERRORS, type Rejection } from './rejection.js';
export {
  requestFaucet,
  requestStablecoinFaucet,
  mineBlocks,
  advanceClock,
  chainClock,
  type ChainClockReply,
  type FaucetReply,
  type StablecoinFaucetReply,
} from './control-client.js';
export { MAX_CLOCK_ADVANCE_SECONDS } from './clock.js';
