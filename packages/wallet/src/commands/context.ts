import { chainSettings, type ChainSettings } from '../chain-settings.js';
import type { WalletIo } from '../io.js';
import type { WalletOptions } from '../options.js';
import { WalletFile } from '../wallet-file.js';

export type CommandContext = { io: WalletIo; options: WalletOptions; chain: ChainSettings; wallet(): WalletFile };

export function commandContext(io: WalletIo, options: WalletOptions): CommandContext {
  const chain = chainSettings(io.env);
  return { io, options, chain, wallet: () => WalletFile.open(options.file, chain.network) };
}
