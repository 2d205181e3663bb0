import { P2PKH, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { walletCoins, type OwnedCoin } from '../wallet-coins.js';
import type { WalletFile } from '../wallet-file.js';
import type { PlannedOutput } from './plan.js';
import { sourceTransaction } from './source-transactions.js';

export type BuildInput = { chain: ChainClient; wallet: WalletFile; outputs: PlannedOutput[]; satsPerKb: number };

/**
 * Signs a payment: the wallet's coins in (at its address and the xpub's used children; largest first, as few
 * as cover it), each signed by its own key, the outputs, change back to the wallet's address, the fee by the rate.
 */
export async function buildTransaction(input: BuildInput): Promise<{ tx: Transaction; fee: number }> {
  const coins = await walletCoins(input.chain, input.wallet);
  if (coins.length === 0)
    throw new AppError(
      'failed_precondition',
      `The wallet has no coins: send some to ${input.wallet.address} (on the local chain: ctk-wallet faucet).`,
    );
  const selected = selectCoins(coins, input.outputs, input.satsPerKb);

  const tx = new Transaction();
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

function selectCoins(coins: OwnedCoin[], outputs: PlannedOutput[], satsPerKb: number): OwnedCoin[] {
  const target = outputs.reduce((sum, output) => sum + output.satoshis, 0);
  const outputBytes = outputs.reduce((sum, output) => sum + 9 + output.lockingScript.toBinary().length, 0) + 34;
  const sorted = [...coins].sort((a, b) => b.satoshis - a.satoshis);
  const selected: OwnedCoin[] = [];
  let total = 0;
  let needed = target;
  for (const coin of sorted) {
    selected.push(coin);
    total += coin.satoshis;
    needed = target + Math.ceil(((10 + 148 * selected.length + outputBytes) * satsPerKb) / 1000);
    if (total >= needed) return selected;
  }
  throw new AppError(
    'failed_precondition',
    `Insufficient funds: the wallet has ${total} satoshis, the payment needs ${needed} (${target} plus the fee).`,
  );
}
