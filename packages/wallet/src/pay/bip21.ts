import { P2PKH, Utils } from '@bsv/sdk';
import type { ChainNetwork } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { bsvToSatoshis } from '../amounts.js';

export type Bip21 = { address: string; satoshis?: number; label?: string; message?: string };

/** `bitcoin:<address>?amount=<BSV>&label=..&message=..` (BIP21); an unknown `req-` parameter is refused, as BIP21 says. */
export function parseBip21(uri: string, network: ChainNetwork): Bip21 {
  const match = /^bitcoin:([^?]*)(?:\?(.*))?$/i.exec(uri);
  if (!match || !match[1]) throw new AppError('bad_request', `Not a bitcoin: URI with an address: ${uri}`);
  const address = decodeURIComponent(match[1]);
  checkAddress(address, network);
  const params = new URLSearchParams(match[2] ?? '');
  const unknownRequired = [...params.keys()].find((key) => key.startsWith('req-'));
  if (unknownRequired) throw new AppError('bad_request', `The URI requires "${unknownRequired}", which this wallet does not support.`);
  const amount = params.get('amount');
  return {
    address,
    ...(amount !== null ? { satoshis: bsvToSatoshis(amount) } : {}),
    ...(params.get('label') ? { label: params.get('label') as string } : {}),
    ...(params.get('message') ? { message: params.get('message') as string } : {}),
  };
}

/** A P2PKH address of the network (main: mainnet form; test and local: either form, the same key hash). */
export function checkAddress(address: string, network: ChainNetwork): void {
  let prefix: number | undefined;
  try {
    const decoded = Utils.fromBase58Check(address);
    prefix = (decoded.prefix as number[])[0];
    if ((decoded.data as number[]).length !== 20) prefix = undefined;
    new P2PKH().lock(address);
  } catch {
    prefix = undefined;
  }
  const allowed = network === 'main' ? [0x00] : [0x6f, 0x00];
  if (prefix === undefined || !allowed.includes(prefix))
    throw new AppError('bad_request', `"${address}" is not a P2PKH address for the ${network} network.`);
}
