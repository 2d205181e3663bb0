import { BSM, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { report } from '../io.js';
import { WalletFile } from '../wallet-file.js';
import type { CommandContext } from './context.js';

export function create({ io, options, chain }: CommandContext): void {
  const wallet = WalletFile.create(options.file, chain.network, options.force);
  report(io, options.json, { file: wallet.path, network: wallet.network, address: wallet.address, public_key: wallet.publicKey }, [
    `Created a ${wallet.network} wallet in ${wallet.path} (mode 0600; the key stays in this file).`,
    `address:    ${wallet.address}`,
    `public key: ${wallet.publicKey}`,
  ]);
}

export function address({ io, options, wallet }: CommandContext): void {
  const opened = wallet();
  report(io, options.json, { address: opened.address, public_key: opened.publicKey }, [opened.address]);
}

/** The only command that shows the key. */
export function exportKey({ io, options, wallet }: CommandContext): void {
  const opened = wallet();
  report(io, options.json, { wif: opened.wif(), address: opened.address }, [opened.wif()]);
}

/** A Bitcoin Signed Message (BSM) signature, base64, by the wallet's key. */
export function signMessage({ io, options, wallet }: CommandContext): void {
  const message = options.args.join(' ');
  if (!message) throw new AppError('bad_request', 'Give the text to sign: ctk-wallet sign-message "<text>".');
  const opened = wallet();
  const signature = BSM.sign(Utils.toArray(message, 'utf8'), opened.key, 'base64') as string;
  report(io, options.json, { address: opened.address, public_key: opened.publicKey, message, signature }, [signature]);
}
