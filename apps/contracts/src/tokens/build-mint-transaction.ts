import { LockingScript, P2PKH, Transaction, UnlockingScript } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import type { FundingCoin } from './funding-coins.js';

/** The largest P2PKH unlocking script: a 72-byte DER signature and its sighash byte, a compressed key, two pushes. */
const P2PKH_UNLOCK_BYTES = 108;
/** A token output holds 1 satoshi, as 1Sat Ordinals' do. */
const TOKEN_OUTPUT_SATOSHIS = 1;

export type MintTransaction = { tx: Transaction; inputs: FundingCoin[]; fee: number; change: number };

/**
 * The unsigned deploy+mint transaction: the mint (1 satoshi locked by `mintLock`) as output 0, the merchant's
 * coins in (largest first, as few as pay for it), change back to `changeAddress` when there is any. Each input
 * carries the output it spends (P2PKH of its address), so the transaction goes out in Extended Format and the
 * wallet signs it without looking anything up; the unlocking scripts are left empty for the wallet. The fee is
 * the rate over the size the transaction will have once signed.
 */
export function buildMintTransaction(input: {
  coins: FundingCoin[];
  mintLock: LockingScript;
  changeAddress: string;
  satsPerKb: number;
}): MintTransaction {
  const changeLock = new P2PKH().lock(input.changeAddress);
  const sorted = [...input.coins].sort((a, b) => b.satoshis - a.satoshis);
  const selected: FundingCoin[] = [];
  let total = 0;
  for (const coin of sorted) {
    selected.push(coin);
    total += coin.satoshis;
    const tx = unsigned(selected, input.mintLock, changeLock, 0);
    const fee = feeOf(tx, input.satsPerKb);
    const change = total - TOKEN_OUTPUT_SATOSHIS - fee;
    if (change === 0) return { tx: unsigned(selected, input.mintLock, undefined, 0), inputs: selected, fee, change };
    if (change > 0) return { tx: unsigned(selected, input.mintLock, changeLock, change), inputs: selected, fee, change };
  }
  const needed = TOKEN_OUTPUT_SATOSHIS + feeOf(unsigned(sorted, input.mintLock, changeLock, 0), input.satsPerKb);
  throw new AppError(
    'failed_precondition',
    `The wallet's coins hold ${total} satoshis; the mint needs ${needed} (1 for the token output and the rest for the fee): ` +
      `send a little BSV to ${input.changeAddress}, then draft the mint again.`,
    { reason: 'insufficient_funds', available_satoshis: total, needed_satoshis: needed },
  );
}

function unsigned(coins: FundingCoin[], mintLock: LockingScript, changeLock: LockingScript | undefined, change: number): Transaction {
  const tx = new Transaction();
  for (const coin of coins) {
    // A stand-in for the source transaction holding only the output spent, as Transaction.fromEF reads one.
    const source = new Transaction();
    source.outputs = Array.from({ length: coin.vout + 1 }, () => null as never);
    source.outputs[coin.vout] = { satoshis: coin.satoshis, lockingScript: new P2PKH().lock(coin.address) };
    tx.addInput({
      sourceTXID: coin.txid,
      sourceOutputIndex: coin.vout,
      sourceTransaction: source,
      unlockingScript: new UnlockingScript([]),
      sequence: 0xffffffff,
    });
  }
  tx.addOutput({ satoshis: TOKEN_OUTPUT_SATOSHIS, lockingScript: mintLock });
  if (changeLock) tx.addOutput({ satoshis: change, lockingScript: changeLock });
  return tx;
}

/** The fee at the rate for the size once signed: each input's empty unlocking script becomes a P2PKH unlock. */
function feeOf(tx: Transaction, satsPerKb: number): number {
  const bytes = tx.toBinary().length + tx.inputs.length * P2PKH_UNLOCK_BYTES;
  return Math.max(1, Math.ceil((bytes * satsPerKb) / 1000));
}
