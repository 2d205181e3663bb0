import { BSM, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { report } from '../io.js';
import { WalletFile } from '../wallet-file.js';
import type { CommandContext } from './context.js';

/** A new HD wallet: its address and identity public key (what onboarding registers), and the xpub (`wallet_xpub`). */
export function create({ io, options, chain }: CommandContext): void {
  const wallet = WalletFile.create(options.file, chain.network, options.force);
  const xpub = wallet.xpub();
  report(io, options.json, { file: wallet.path, network: wallet.network, address: wallet.address, public_key: wallet.publicKey, xpub }, [
    `Created a ${wallet.network} wallet in ${wallet.path} (mode 0600; the seed stays in this file).`,
    `address:    ${wallet.address}`,
    `public key: ${wallet.publicKey}`,
    `xpub:       ${xpub}`,
  ]);
}

/** The extended public key: the service derives each payment's address as its child m/0/n. */
export function xpub({ io, options, wallet }: CommandContext): void {
  const key = wallet().xpub();
  report(io, options.json, { xpub: key }, [key]);
}

export function address({ io, options, wallet }: CommandContext): void {
  const opened = wallet();
  report(io, options.json, { address: opened.address, public_key: opened.publicKey }, [opened.address]);
}

/** The only command that shows a private key: the identity key in WIF (and, with --json, an HD wallet's xprv). */
export function exportKey({ io, options, wallet }: CommandContext): void {
  const opened = wallet();
  report(io, options.json, { wif: opened.wif(), address: opened.address, ...(opened.hd ? { xprv: opened.hd.xprv } : {}) }, [opened.wif()]);
}

/** A Bitcoin Signed Message (BSM) signature, base64, by the wallet's key. */
export function signMessage({ io, options, wallet }: CommandContext): void {
  const message = options.args.join(' ');
  if (!message) throw new AppError('bad_request', 'Give the text to sign: ctk-wallet sign-message "<text>".');
  const opened = wallet();
  const signature = BSM.sign(Utils.toArray(message, 'utf8'), opened.key, 'base64') as string;
  report(io, options.json, { address: opened.address, public_key: opened.publicKey, message, signature }, [signature]);
}
