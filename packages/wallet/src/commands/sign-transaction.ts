import { P2PKH } from '@bsv/sdk';
import { decodeTransaction, hexToBytes } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { report } from '../io.js';
import { addressOfPkh, inputsToSign } from '../sign/input-owner.js';
import { signingKeys } from '../sign/signing-keys.js';
import type { CommandContext } from './context.js';

/**
 * Signs a transaction someone else built for this wallet (a token mint the service drafted): every input still
 * unsigned whose key the wallet has, and prints the signed transaction in Extended Format hex, for the wallet
 * API's broadcast. An input spending an address that is not the wallet's is refused and nothing is signed: a
 * transaction that cannot be finished here is not half signed. It broadcasts nothing.
 */
export async function signTransaction({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const [hex, ...rest] = options.args;
  if (!hex || rest.length > 0)
    throw new AppError('bad_request', 'Give the transaction to sign, in hex: ctk-wallet sign-transaction <Extended Format hex>.');
  const tx = decoded(hex);
  const opened = wallet();
  const toSign = inputsToSign(tx);
  if (toSign.length === 0) throw new AppError('bad_request', 'Every input of the transaction is already signed: there is nothing to sign.');
  const keys = await signingKeys(chain.client, opened, new Set(toSign.map((input) => input.ownerPkh)));
  const mainnet = opened.network === 'main';
  const foreign = toSign.find((input) => !keys.has(input.ownerPkh));
  if (foreign)
    throw new AppError(
      'bad_request',
      `Input ${foreign.index} spends ${addressOfPkh(foreign.ownerPkh, mainnet)}, which is not an address of this wallet: nothing was signed.`,
    );
  for (const input of toSign) tx.inputs[input.index]!.unlockingScriptTemplate = new P2PKH().unlock(keys.get(input.ownerPkh)!.key);
  await tx.sign();
  const signed = tx.toHexEF();
  const inputs = toSign.map((input) => ({
    index: input.index,
    address: addressOfPkh(input.ownerPkh, mainnet),
    path: keys.get(input.ownerPkh)!.path ?? null,
  }));
  report(io, options.json, { txid: tx.id('hex'), transaction: signed, signed_inputs: inputs }, [signed]);
}

function decoded(hex: string) {
  try {
    return decodeTransaction(hexToBytes(hex.trim())).tx;
  } catch {
    throw new AppError('bad_request', 'That is not a transaction in hex (Extended Format, BEEF or raw).');
  }
}
