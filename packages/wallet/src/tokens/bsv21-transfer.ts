import { P2PKH, Transaction, Utils, type PrivateKey } from '@bsv/sdk';
import { formatTokenUnits, parseTokenOutput, type ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { transferOrdTokens } from 'js-1sat-ord';
import { walletCoins } from '../wallet-coins.js';
import type { WalletFile } from '../wallet-file.js';
import type { OwnedTokenUtxo } from './wallet-tokens.js';

/** js-1sat-ord's `Utxo` and `TokenUtxo`: scripts in base64, each with the key that signs it. */
type OneSatUtxo = { txid: string; vout: number; satoshis: number; script: string; pk: PrivateKey };
type OneSatTokenUtxo = OneSatUtxo & { satoshis: 1; amt: string; id: string };

/**
 * js-1sat-ord's `transferOrdTokens` with the types it declares: its declarations import their siblings without
 * file extensions, which TypeScript's NodeNext resolution cannot follow, so the package types as `any` here.
 * `protocol` is its `TokenType.BSV21`, by value.
 */
async function transferBsv21(config: {
  tokenID: string;
  decimals: number;
  utxos: OneSatUtxo[];
  inputTokens: OneSatTokenUtxo[];
  distributions: Array<{ address: string; tokens: number }>;
  changeAddress: string;
  tokenChangeAddress: string;
  satsPerKb: number;
}): Promise<Transaction> {
  const result = (await transferOrdTokens({ protocol: 'bsv21', ...config })) as { tx: Transaction };
  return result.tx;
}

const base64 = (script: { toBinary(): number[] }) => Utils.toBase64(script.toBinary());

/**
 * A plain (P2PKH-owned) BSV-21 transfer built by js-1sat-ord, as 1Sat wallets build them: the chosen token
 * outputs and the wallet's coins in, `amount` units to `to`, the token change and the coins' change to the
 * wallet's address. js-1sat-ord takes the amount as a number of whole tokens and converts it with floating
 * point, so the built transaction is read back: its first output must move exactly `amount` units to `to`.
 */
export async function bsv21Transfer(input: {
  chain: ChainClient;
  wallet: WalletFile;
  tokenId: string;
  decimals: number;
  chosen: OwnedTokenUtxo[];
  to: string;
  amount: bigint;
  satsPerKb: number;
}): Promise<Transaction> {
  const coins = (await walletCoins(input.chain, input.wallet)).sort((a, b) => b.satoshis - a.satoshis);
  if (coins.length === 0)
    throw new AppError(
      'failed_precondition',
      `The wallet has no coins for the fee: send some to ${input.wallet.address} (on the local chain: ctk-wallet faucet).`,
    );
  let built: Transaction;
  try {
    built = await transferBsv21({
      tokenID: input.tokenId,
      decimals: input.decimals,
      utxos: coins.map((coin) => ({
        txid: coin.txid,
        vout: coin.vout,
        satoshis: coin.satoshis,
        script: base64(new P2PKH().lock(coin.owner.address)),
        pk: coin.owner.key,
      })),
      inputTokens: input.chosen.map((utxo) => ({
        txid: utxo.txid,
        vout: utxo.vout,
        satoshis: 1,
        script: Utils.toBase64(Utils.toArray(utxo.lockingScript, 'hex')),
        amt: utxo.amount.toString(),
        id: input.tokenId,
        pk: utxo.holder.key,
      })),
      distributions: [{ address: input.to, tokens: Number(formatTokenUnits(input.amount, input.decimals)) }],
      changeAddress: input.wallet.address,
      tokenChangeAddress: input.wallet.address,
      satsPerKb: input.satsPerKb,
    });
  } catch (error) {
    throw new AppError(
      'failed_precondition',
      `js-1sat-ord could not build the transfer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // Read back from its bytes: js-1sat-ord gives its inputs stand-in source transactions (outputs only).
  const tx = Transaction.fromHex(built.toHex());
  const paid = parseTokenOutput(tx.outputs[0]!.lockingScript);
  const toPkh = Utils.toHex(Utils.fromBase58Check(input.to).data as number[]);
  if (paid?.op !== 'transfer' || paid.tokenId !== input.tokenId || paid.amount !== input.amount || paid.ownerPkh !== toPkh)
    throw new AppError(
      'failed_precondition',
      `js-1sat-ord built a transfer of ${paid?.amount ?? 'no'} units instead of ${input.amount}: its amounts pass through floating point, exact only up to about 2^53 units.`,
    );
  return tx;
}
