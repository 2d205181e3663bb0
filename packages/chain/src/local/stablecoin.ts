import { P2PKH, Utils, type PrivateKey, type Transaction } from '@bsv/sdk';
import { tokenLock, tokenTransferOutput } from '../tokens/token-lock.js';
import { p2pkhHash, type ChainState, type Coin } from './chain-state.js';
import { ownTransaction } from './own-transaction.js';
import type { IndexedTokenOutput } from './token-index.js';

/** The local chain's test dollar: 5 decimals as MNEE's, so 100,000 units are a dollar. */
export const STABLECOIN_SYMBOL = 'USDX';
export const STABLECOIN_DECIMALS = 5;
/** A trillion dollars: more than any test hands out, well under 1Sat's 2^63 - 1 units. */
export const STABLECOIN_SUPPLY = 1_000_000_000_000n * 100_000n;

/** What the chain's stablecoin is, as `GET /v1/bsv/local/stablecoin` shows it. */
export type LocalStablecoin = { tokenId: string; symbol: string; decimals: number; cosignerPublicKey: string };

export type StablecoinKeys = { faucet: PrivateKey; treasury: PrivateKey; cosigner: PrivateKey };

const pkhOf = (key: PrivateKey) => Utils.toHex(key.toPublicKey().toHash() as number[]);

/** The chain's stablecoin in its index: USDX deployed to the treasury, cosign-locked to this cosigner (the first such). */
export function findStablecoin(state: ChainState, keys: StablecoinKeys): LocalStablecoin | undefined {
  const cosignerPublicKey = keys.cosigner.toPublicKey().toString();
  const deploy = state.tokens
    .deploys()
    .find(
      (output) =>
        output.symbol === STABLECOIN_SYMBOL &&
        output.decimals === STABLECOIN_DECIMALS &&
        output.ownerPkh === pkhOf(keys.treasury) &&
        output.cosignerPublicKey === cosignerPublicKey,
    );
  return deploy && { tokenId: deploy.tokenId, symbol: STABLECOIN_SYMBOL, decimals: STABLECOIN_DECIMALS, cosignerPublicKey };
}

/**
 * Deploys and mints the stablecoin's whole supply (output 0, so its id is `<txid>_0` as MNEE's is) to the
 * treasury, cosign-locked to the chain's cosigner, paid from a faucet coin.
 */
export function stablecoinDeploy(coin: Coin, keys: StablecoinKeys, minFeeSatsPerKb: number): Transaction | undefined {
  return ownTransaction({
    inputs: [{ coin, keys: [keys.faucet] }],
    outputs: [
      {
        satoshis: 1,
        lockingScript: tokenLock({
          ownerAddress: keys.treasury.toAddress('testnet'),
          inscription: { op: 'deploy+mint', symbol: STABLECOIN_SYMBOL, decimals: STABLECOIN_DECIMALS, amount: STABLECOIN_SUPPLY },
          cosignerPublicKey: keys.cosigner.toPublicKey().toString(),
        }),
      },
    ],
    change: faucetScript(keys),
    minFeeSatsPerKb,
  });
}

/**
 * A stablecoin faucet payment: `amount` units from the treasury's USDX to `address` (output 0), the rest back
 * to the treasury, both cosign-locked to the chain's cosigner, which signs with the treasury; the fee from the
 * faucet's largest coin. Undefined when the treasury or the faucet holds too little.
 */
export function stablecoinPayment(input: {
  state: ChainState;
  stablecoin: LocalStablecoin;
  keys: StablecoinKeys;
  address: string;
  amount: bigint;
  minFeeSatsPerKb: number;
}): Transaction | undefined {
  const { state, stablecoin, keys } = input;
  const held = state.tokens
    .unspent(pkhOf(keys.treasury), stablecoin.tokenId)
    .filter((output) => output.cosignerPublicKey === stablecoin.cosignerPublicKey)
    .sort((a, b) => (a.amount < b.amount ? 1 : a.amount > b.amount ? -1 : 0));
  const chosen: IndexedTokenOutput[] = [];
  let total = 0n;
  for (const output of held) {
    if (total >= input.amount) break;
    chosen.push(output);
    total += output.amount;
  }
  const feeCoin = state
    .unspent(p2pkhHash(faucetScript(keys))!)
    .filter((coin) => !coin.spentBy)
    .sort((a, b) => b.satoshis - a.satoshis)[0];
  if (total < input.amount || !feeCoin) return undefined;
  const lock = (address: string, amount: bigint) =>
    tokenTransferOutput({ address, tokenId: stablecoin.tokenId, amount, cosignerPublicKey: stablecoin.cosignerPublicKey });
  const outputs = [lock(input.address, input.amount)];
  if (total > input.amount) outputs.push(lock(keys.treasury.toAddress('testnet'), total - input.amount));
  return ownTransaction({
    inputs: [
      ...chosen.map((output) => ({ coin: output, keys: [keys.treasury, keys.cosigner] as [PrivateKey, PrivateKey] })),
      { coin: feeCoin, keys: [keys.faucet] as [PrivateKey] },
    ],
    outputs,
    change: faucetScript(keys),
    minFeeSatsPerKb: input.minFeeSatsPerKb,
  });
}

function faucetScript(keys: StablecoinKeys) {
  return new P2PKH().lock(keys.faucet.toPublicKey().toHash() as number[]);
}
