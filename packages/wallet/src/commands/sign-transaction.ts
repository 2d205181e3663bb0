import { OP, P2PKH, UnlockingScript, type Transaction } from '@bsv/sdk';
import { decodeTransaction, hexToBytes, inputSignature } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { report } from '../io.js';
import { addressOfPkh, inputsToSign, keyHashesOf, type InputToSign } from '../sign/input-owner.js';
import { signingKeys, type SigningKey } from '../sign/signing-keys.js';
import type { CommandContext } from './context.js';

/**
 * Signs a transaction someone else built for this wallet (a token mint the service drafted, a joint transaction):
 * every input still unsigned whose key the wallet has, and prints the signed transaction in Extended Format
 * hex, for the wallet API's broadcast or the joint transaction's signatures. A P2PKH input gets its full
 * unlocking script; a bare multisig gets `OP_0` and this wallet's signatures in the lock's key order (the
 * service combines them with the partners'). Without `--partial` an input that is not the wallet's is refused
 * and nothing is signed: a transaction that cannot be finished here is not half signed. It broadcasts nothing.
 */
export async function signTransaction({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const [hex, ...rest] = options.args;
  if (!hex || rest.length > 0)
    throw new AppError(
      'bad_request',
      'Give the transaction to sign, in hex: ctk-wallet sign-transaction <Extended Format hex> [--partial].',
    );
  const tx = decoded(hex);
  const opened = wallet();
  const toSign = inputsToSign(tx, options.partial);
  if (toSign.length === 0)
    throw new AppError(
      'bad_request',
      'No input of the transaction is left for this wallet to sign: they are signed already or are not its.',
    );
  const keys = await signingKeys(chain.client, opened, new Set(toSign.flatMap(keyHashesOf)));
  const mainnet = opened.network === 'main';
  const ours = (input: InputToSign) => keyHashesOf(input).some((pkh) => keys.has(pkh));
  const foreign = toSign.find((input) => !ours(input));
  if (foreign && !options.partial)
    throw new AppError(
      'bad_request',
      `Input ${foreign.index} spends ${describe(foreign, mainnet)}, which is not this wallet's to sign: nothing was signed (--partial signs the rest).`,
    );
  const signing = toSign.filter(ours);
  if (signing.length === 0)
    throw new AppError('bad_request', 'No input of the transaction is locked to a key of this wallet: nothing was signed.');
  for (const input of signing)
    if (input.kind === 'p2pkh') tx.inputs[input.index]!.unlockingScriptTemplate = new P2PKH().unlock(keys.get(input.ownerPkh)!.key);
  await tx.sign();
  for (const input of signing) if (input.kind === 'multisig') signMultisig(tx, input, keys);
  const signed = tx.toHexEF();
  // One line per key that signed: a multisig input this wallet holds two keys of is two.
  const inputs = signing.flatMap((input) =>
    keyHashesOf(input)
      .filter((pkh) => keys.has(pkh))
      .map((pkh) => ({ index: input.index, address: addressOfPkh(pkh, mainnet), path: keys.get(pkh)!.path ?? null })),
  );
  report(io, options.json, { txid: tx.id('hex'), transaction: signed, signed_inputs: inputs }, [signed]);
}

/** This wallet's signatures of a bare multisig input, in the lock's key order, after `OP_0` (CHECKMULTISIG's extra item). */
function signMultisig(tx: Transaction, input: Extract<InputToSign, { kind: 'multisig' }>, keys: Map<string, SigningKey>): void {
  const spent = tx.inputs[input.index]!.sourceTransaction!.outputs[tx.inputs[input.index]!.sourceOutputIndex]!;
  const signatures = input.keys
    .filter((key) => keys.has(key.pkh))
    .slice(0, input.required)
    .map((key) =>
      inputSignature({
        tx,
        inputIndex: input.index,
        key: keys.get(key.pkh)!.key,
        sourceSatoshis: spent.satoshis!,
        lockingScript: spent.lockingScript,
      }),
    );
  tx.inputs[input.index]!.unlockingScript = new UnlockingScript([
    { op: OP.OP_0 },
    ...signatures.map((data) => ({ op: data.length, data })),
  ]);
}

function describe(input: InputToSign, mainnet: boolean): string {
  return input.kind === 'p2pkh' ? addressOfPkh(input.ownerPkh, mainnet) : `a ${input.required}-of-${input.keys.length} multisig`;
}

function decoded(hex: string) {
  try {
    return decodeTransaction(hexToBytes(hex.trim())).tx;
  } catch {
    throw new AppError('bad_request', 'That is not a transaction in hex (Extended Format, BEEF or raw).');
  }
}
