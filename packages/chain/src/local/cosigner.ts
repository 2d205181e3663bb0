import type { PrivateKey, Transaction } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { cosignInput } from '../tokens/cosign-unlock.js';
import { parseTokenOutput } from '../tokens/parse-token-output.js';
import type { ChainState, Coin } from './chain-state.js';
import type { LocalStablecoin } from './stablecoin.js';

/** Why the cosigner refuses a transaction: stable words in `details.reason`, for code to tell them apart. */
export type CosignRefusal =
  | 'unknown_input'
  | 'input_spent'
  | 'nothing_to_cosign'
  | 'not_the_stablecoin'
  | 'output_not_cosigned'
  | 'not_whole'
  | 'owner_signature_missing';

const refuse = (reason: CosignRefusal, message: string, details: Record<string, unknown> = {}) =>
  new AppError('chain_rejected', `The cosigner refuses the transaction: ${message}`, { service: 'cosigner', reason, ...details });

/**
 * The local chain's test cosigner, as MNEE's approves a transfer of its token: every input that spends an
 * output cosign-locked to it must be a valid, unspent output of the stablecoin; the stablecoin's outputs must
 * add up to exactly what those inputs hold (valid by the indexer's rule, and nothing burned) and each be
 * cosign-locked to it again. Then it puts its signature in front of the owner's in each of those inputs and
 * hands the transaction back. It broadcasts nothing; the chain checks every signature when it is broadcast.
 */
export function cosignTransaction(input: {
  state: ChainState;
  tx: Transaction;
  stablecoin: LocalStablecoin;
  cosignerKey: PrivateKey;
}): Transaction {
  const { state, tx, stablecoin } = input;
  const coins = tx.inputs.map((txInput, index): Coin => {
    const coin = state.coin(txInput.sourceTXID ?? '', txInput.sourceOutputIndex);
    if (!coin)
      throw refuse(
        'unknown_input',
        `input ${index} spends ${txInput.sourceTXID}:${txInput.sourceOutputIndex}, which this chain does not have`,
        {
          input: index,
        },
      );
    if (coin.spentBy)
      throw refuse('input_spent', `input ${index} spends ${coin.txid}:${coin.vout}, already spent by ${coin.spentBy}`, { input: index });
    return coin;
  });

  const ours = coins.flatMap((coin, index) =>
    parseTokenOutput(coin.lockingScript)?.cosignerPublicKey === stablecoin.cosignerPublicKey ? [index] : [],
  );
  if (ours.length === 0)
    throw refuse('nothing_to_cosign', `no input spends an output cosign-locked to this cosigner (${stablecoin.cosignerPublicKey})`);
  let held = 0n;
  for (const index of ours) {
    const indexed = state.tokens.output(coins[index]!.txid, coins[index]!.vout);
    if (!indexed?.valid || indexed.tokenId !== stablecoin.tokenId)
      throw refuse('not_the_stablecoin', `input ${index} is cosign-locked to this cosigner but holds no ${stablecoin.symbol}`, {
        input: index,
      });
    held += indexed.amount;
  }

  let moved = 0n;
  tx.outputs.forEach((output, index) => {
    const token = parseTokenOutput(output.lockingScript);
    if (token?.tokenId !== stablecoin.tokenId) return;
    if (token.cosignerPublicKey !== stablecoin.cosignerPublicKey)
      throw refuse('output_not_cosigned', `output ${index} moves ${stablecoin.symbol} without the cosign lock of this cosigner`, {
        output: index,
      });
    moved += token.amount;
  });
  if (moved !== held)
    throw refuse(
      'not_whole',
      moved > held
        ? `its ${stablecoin.symbol} outputs move ${moved} units, more than the ${held} its inputs hold (an invalid transfer)`
        : `its ${stablecoin.symbol} outputs move ${moved} units of the ${held} its inputs hold: every unit must stay cosign-locked`,
      { held: held.toString(), moved: moved.toString() },
    );

  let cosigned = tx;
  for (const index of ours) {
    if (tx.inputs[index]!.unlockingScript?.chunks.length !== 2)
      throw refuse('owner_signature_missing', `input ${index} lacks the owner's signature and public key (two pushes)`, { input: index });
    cosigned = cosignInput({
      tx: cosigned,
      inputIndex: index,
      cosignerKey: input.cosignerKey,
      sourceSatoshis: coins[index]!.satoshis,
      lockingScript: coins[index]!.lockingScript,
    });
  }
  return cosigned;
}
