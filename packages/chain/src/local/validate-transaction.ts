import type { Transaction } from '@bsv/sdk';
import { MAX_SATOSHIS } from '@ctk/shared';
import { checkInputScripts, type ScriptChecks } from '../verify/check-input-scripts.js';
import { MEDIAN_TIME_SPAN, NULL_TXID, type ChainState, type Coin } from './chain-state.js';
import { reject, type Rejection } from './rejection.js';

export type Policy = {
  /** The lowest fee accepted, in satoshis per 1000 bytes of the raw transaction; 0 accepts any fee. */
  minFeeSatsPerKb: number;
  /** How unlocking scripts are checked: `fast` (the default) or `sdk` (@bsv/sdk's interpreter for every input). */
  scriptChecks?: ScriptChecks;
};

const FINAL_SEQUENCE = 0xffffffff;
const LOCKTIME_THRESHOLD = 500_000_000;

/**
 * What a node checks before a transaction enters its mempool, against the chain's own UTXO set (values
 * and scripts a client sends in EF or BEEF are not trusted): every input spends an existing output nobody
 * else spends, the transaction is final (`checkFinal`), outputs do not exceed inputs, the fee meets the policy, and every
 * unlocking script satisfies its locking script (`checkInputScripts`: libsecp256k1 for standard P2PKH inputs,
 * @bsv/sdk's interpreter for the rest, with the same verdicts).
 */
export function validateTransaction(state: ChainState, tx: Transaction, txid: string, size: number, policy: Policy): Rejection | undefined {
  if (tx.inputs.length === 0 || tx.outputs.length === 0) return reject(462, 'transaction has no inputs or outputs', txid);
  const found = findCoins(state, tx, txid);
  if (!Array.isArray(found)) return found;
  const nonFinal = checkFinal(tx, state.height + 1, state.medianTimePast());
  if (nonFinal) return { kind: 'status', txStatus: 'REJECTED', extraInfo: nonFinal, txid };
  const fee = checkAmounts(tx, found, txid, size, policy);
  if (typeof fee !== 'number') return fee;
  return checkScripts(tx, found, txid, policy.scriptChecks);
}

function findCoins(state: ChainState, tx: Transaction, txid: string): Coin[] | Rejection {
  const coins: Coin[] = [];
  const seen = new Set<string>();
  for (const [index, input] of tx.inputs.entries()) {
    const parent = input.sourceTXID!;
    const outpoint = `${parent}:${input.sourceOutputIndex}`;
    if (parent === NULL_TXID) return reject(462, `input ${index} is a coinbase input, which cannot be relayed`, txid);
    if (seen.has(outpoint)) return reject(462, `input ${index} spends ${outpoint} twice in one transaction`, txid);
    seen.add(outpoint);
    if (!state.transaction(parent)) {
      return input.sourceTransaction
        ? reject(462, `input ${index} spends ${outpoint}, an output of a transaction this chain does not have`, txid)
        : reject(460, `parent transaction ${parent} not found`, txid);
    }
    const coin = state.coin(parent, input.sourceOutputIndex);
    if (!coin) return reject(462, `input ${index} spends ${outpoint}, which does not exist`, txid);
    if (coin.spentBy) {
      return {
        kind: 'status',
        txStatus: 'DOUBLE_SPEND_ATTEMPTED',
        txid,
        competingTxs: [coin.spentBy],
        extraInfo: `input ${index} spends ${outpoint}, already spent by ${coin.spentBy}`,
      };
    }
    coins.push(coin);
  }
  return coins;
}

/**
 * A transaction with a lock time not yet reached and a non-final input cannot enter the next block, as a
 * node's `IsFinalTx` for the next block has it: a lock time below 500,000,000 is a height, reached when it
 * is below the next block's height; one above is a unix time, reached when it is below the median time past
 * of the tip (the median of the last 11 blocks' times, BIP 113), not the clock: a time-locked transaction
 * waits for blocks whose median time is past its lock time. A lock time of 0, or every input's sequence
 * 0xffffffff, makes it final whatever the lock time.
 */
export function checkFinal(tx: Transaction, nextHeight: number, medianTimePast: number): string | undefined {
  if (tx.lockTime === 0 || tx.inputs.every((input) => (input.sequence ?? FINAL_SEQUENCE) === FINAL_SEQUENCE)) return undefined;
  const byHeight = tx.lockTime < LOCKTIME_THRESHOLD;
  if (byHeight ? tx.lockTime < nextHeight : tx.lockTime < medianTimePast) return undefined;
  const when = byHeight
    ? `block ${tx.lockTime + 1} at the earliest (the next block is ${nextHeight})`
    : `a block once the median time past of the last ${MEDIAN_TIME_SPAN} blocks is after ${isoTime(tx.lockTime)} (the tip's median time past is ${isoTime(medianTimePast)}, ${medianTimePast})`;
  return `non-final: nLockTime ${tx.lockTime} lets it into ${when}, and an input's sequence is not final`;
}

const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

function checkAmounts(tx: Transaction, coins: Coin[], txid: string, size: number, policy: Policy): number | Rejection {
  const inputs = coins.reduce((sum, coin) => sum + coin.satoshis, 0);
  // No output pays more than there is (a node's MAX_MONEY); outputs together cannot either, being at most the inputs.
  const outOfRange = tx.outputs.findIndex(
    (output) => !Number.isSafeInteger(output.satoshis) || output.satoshis! < 0 || output.satoshis! > MAX_SATOSHIS,
  );
  if (outOfRange >= 0)
    return reject(464, `output ${outOfRange} pays ${tx.outputs[outOfRange]!.satoshis} satoshis, outside 0 to ${MAX_SATOSHIS}`, txid);
  const outputs = tx.outputs.reduce((sum, output) => sum + output.satoshis!, 0);
  if (outputs > inputs) return reject(465, `outputs total ${outputs} satoshis, more than the inputs' ${inputs}`, txid);
  const fee = inputs - outputs;
  const required = Math.ceil((size * policy.minFeeSatsPerKb) / 1000);
  if (fee < required)
    return reject(465, `fee ${fee} satoshis is below the minimum ${required} for ${size} bytes at ${policy.minFeeSatsPerKb} sat/kB`, txid);
  return fee;
}

function checkScripts(tx: Transaction, coins: Coin[], txid: string, scriptChecks: ScriptChecks | undefined): Rejection | undefined {
  const failure = checkInputScripts(tx, coins, { scriptChecks });
  return failure && reject(461, `input ${failure.index}: ${failure.reason}`, txid);
}
