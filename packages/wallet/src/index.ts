export { runWallet, USAGE } from './cli.js';
export type { WalletIo } from './io.js';
