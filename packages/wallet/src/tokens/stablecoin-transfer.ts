import type { Transaction } from '@bsv/sdk';
import { cosignOwnerUnlock, tokenTransferOutput, type ChainClient, type StablecoinInfo } from '@ctk/chain';
import { buildTransaction } from '../pay/build-transaction.js';
import { sourceTransaction } from '../pay/source-transactions.js';
import type { WalletFile } from '../wallet-file.js';
import type { OwnedTokenUtxo } from './wallet-tokens.js';

/** `<cosigner sig> <owner sig> <owner key>`, the size a cosigned input's unlocking script ends up. */
const COSIGNED_UNLOCK_BYTES = 182;

/**
 * A stablecoin transfer as MNEE's cosigner approves one: the chosen outputs in (each signed by its owner's
 * key, the cosigner's part to come), `amount` to `to` and the rest back to the wallet's address, both
 * cosign-locked to the same cosigner, so every unit stays under it; the fee from the wallet's coins. The
 * transaction is signed by the wallet only: the cosigner completes it.
 */
export async function stablecoinTransfer(input: {
  chain: ChainClient;
  wallet: WalletFile;
  stablecoin: StablecoinInfo;
  chosen: OwnedTokenUtxo[];
  total: bigint;
  to: string;
  amount: bigint;
  satsPerKb: number;
}): Promise<{ tx: Transaction; fee: number }> {
  const { stablecoin } = input;
  const lock = (address: string, amount: bigint) =>
    tokenTransferOutput({ address, tokenId: stablecoin.tokenId, amount, cosignerPublicKey: stablecoin.cosignerPublicKey });
  const outputs = [lock(input.to, input.amount)];
  if (input.total > input.amount) outputs.push(lock(input.wallet.address, input.total - input.amount));
  const cache = new Map<string, Transaction>();
  const extraInputs = [];
  for (const utxo of input.chosen) {
    extraInputs.push({
      sourceTransaction: await sourceTransaction(input.chain, utxo.txid, cache),
      sourceOutputIndex: utxo.vout,
      unlockingScriptTemplate: cosignOwnerUnlock(utxo.holder.key),
      unlockingBytes: COSIGNED_UNLOCK_BYTES,
    });
  }
  return buildTransaction({ chain: input.chain, wallet: input.wallet, outputs, satsPerKb: input.satsPerKb, extraInputs });
}
