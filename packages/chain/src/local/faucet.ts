import { P2PKH, Transaction, type PrivateKey } from '@bsv/sdk';
import { p2pkhHash, type ChainState } from './chain-state.js';

/** Bytes a P2PKH input and the rest of a two-output transaction take, for the faucet's fee. */
const INPUT_BYTES = 148;
const BASE_BYTES = 10 + 2 * 34;

/**
 * A payment from the faucet's coins to `lockingScript`, signed with the faucet's key, change back to the
 * faucet. Largest coins first; it pays at least the chain's own minimum fee. Undefined when the faucet
 * holds too little.
 */
export async function faucetPayment(input: {
  state: ChainState;
  key: PrivateKey;
  lockingScript: ReturnType<P2PKH['lock']>;
  satoshis: number;
  minFeeSatsPerKb: number;
}): Promise<Transaction | undefined> {
  const faucetScript = new P2PKH().lock(input.key.toPublicKey().toHash() as number[]);
  const coins = input.state
    .unspent(p2pkhHash(faucetScript)!)
    .filter((coin) => coin.satoshis > 0)
    .sort((a, b) => b.satoshis - a.satoshis);
  const feeFor = (inputs: number) => Math.max(1, Math.ceil(((BASE_BYTES + inputs * INPUT_BYTES) * input.minFeeSatsPerKb) / 1000));
  const chosen: typeof coins = [];
  let total = 0;
  for (const coin of coins) {
    if (total >= input.satoshis + feeFor(chosen.length)) break;
    chosen.push(coin);
    total += coin.satoshis;
  }
  const fee = feeFor(chosen.length);
  if (total < input.satoshis + fee) return undefined;

  const tx = new Transaction();
  for (const coin of chosen) {
    tx.addInput({
      sourceTXID: coin.txid,
      sourceOutputIndex: coin.vout,
      unlockingScriptTemplate: new P2PKH().unlock(input.key, 'all', false, coin.satoshis, coin.lockingScript),
      sequence: 0xffffffff,
    });
  }
  tx.addOutput({ satoshis: input.satoshis, lockingScript: input.lockingScript });
  const change = total - input.satoshis - fee;
  if (change > 0) tx.addOutput({ satoshis: change, lockingScript: faucetScript });
  await tx.sign();
  return tx;
}
