import { P2PKH, SatoshisPerKilobyte, Transaction, type ScriptTemplateUnlock } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { walletCoins, type OwnedCoin } from '../wallet-coins.js';
import type { WalletFile } from '../wallet-file.js';
import type { PlannedOutput } from './plan.js';
import { sourceTransaction } from './source-transactions.js';

/** An input besides the wallet's coins (a token output), first in the transaction: its size counts in the fee. */
export type ExtraInput = {
  sourceTransaction: Transaction;
  sourceOutputIndex: number;
  unlockingScriptTemplate: ScriptTemplateUnlock;
  /** The bytes of its unlocking script once complete (a cosigned input's includes the cosigner's signature). */
  unlockingBytes: number;
};

export type BuildInput = {
  chain: ChainClient;
  wallet: WalletFile;
  outputs: PlannedOutput[];
  satsPerKb: number;
  extraInputs?: ExtraInput[];
};

/**
 * Signs a payment: the extra inputs first (token outputs), then the wallet's coins (at its address and the
 * xpub's used children; largest first, as few as cover it), each signed by its own key, the outputs, change
 * back to the wallet's address, the fee by the rate.
 */
export async function buildTransaction(input: BuildInput): Promise<{ tx: Transaction; fee: number }> {
  const coins = await walletCoins(input.chain, input.wallet);
  if (coins.length === 0)
    throw new AppError(
      'failed_precondition',
      `The wallet has no coins: send some to ${input.wallet.address} (on the local chain: ctk-wallet faucet).`,
    );
  const extra = input.extraInputs ?? [];
  const selected = selectCoins(coins, input.outputs, input.satsPerKb, extra);

  const tx = new Transaction();
  for (const extraInput of extra) {
    const { sourceTransaction, sourceOutputIndex, unlockingScriptTemplate } = extraInput;
    tx.addInput({ sourceTransaction, sourceOutputIndex, unlockingScriptTemplate, sequence: 0xffffffff });
  }
  const cache = new Map<string, Transaction>();
  for (const coin of selected) {
    tx.addInput({
      sourceTransaction: await sourceTransaction(input.chain, coin.txid, cache),
      sourceOutputIndex: coin.vout,
      unlockingScriptTemplate: new P2PKH().unlock(coin.owner.key),
    });
  }
  for (const output of input.outputs) tx.addOutput(output);
  tx.addOutput({ lockingScript: new P2PKH().lock(input.wallet.address), change: true });
  await tx.fee(new SatoshisPerKilobyte(input.satsPerKb));
  await tx.sign();
  return { tx, fee: tx.getFee() };
}

function selectCoins(coins: OwnedCoin[], outputs: PlannedOutput[], satsPerKb: number, extra: ExtraInput[]): OwnedCoin[] {
  const extraSatoshis = extra.reduce((sum, input) => sum + input.sourceTransaction.outputs[input.sourceOutputIndex]!.satoshis!, 0);
  const target = outputs.reduce((sum, output) => sum + output.satoshis, 0) - extraSatoshis;
  const fixedBytes =
    outputs.reduce((sum, output) => sum + 9 + output.lockingScript.toBinary().length, 0) +
    34 +
    extra.reduce((sum, input) => sum + 41 + input.unlockingBytes, 0);
  const sorted = [...coins].sort((a, b) => b.satoshis - a.satoshis);
  const selected: OwnedCoin[] = [];
  let total = 0;
  let needed = target;
  for (const coin of sorted) {
    selected.push(coin);
    total += coin.satoshis;
    needed = target + Math.ceil(((10 + 148 * selected.length + fixedBytes) * satsPerKb) / 1000);
    if (total >= needed) return selected;
  }
  throw new AppError(
    'failed_precondition',
    `Insufficient funds: the wallet has ${total} satoshis, the payment needs ${needed} (${target} plus the fee).`,
  );
}
