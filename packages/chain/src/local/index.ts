export { startLocalChain, LOCAL_CHAIN_DEFAULTS, type StartLocalChainOptions, type RunningLocalChain } from './start-local-chain.js';
export type { ScriptChecks } from '../verify/check-input-scripts.js';
export { localChainConfigSchema, localChainOptions, type LocalChainConfig } from './config.js';
export { LocalChain, type ArcTxStatus, type FaucetPayment, type SubmitOutcome } from './local-chain.js';
export { WOC_BASE_PATH } from './woc-routes.js';
export { ARC_ERRORS, type Rejection } from './rejection.js';
export { requestFaucet, mineBlocks, type FaucetReply } from './control-client.js';
