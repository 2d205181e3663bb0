import { LockingScript } from '@bsv/sdk';
import type { ChainClient, ChainNetwork } from '@ctk/chain';
import type { CredentialStore, PayRequest, PayResult } from '@ctk/paygate/client';
import { findCredential } from '@ctk/paygate/client';
import { AppError } from '@ctk/shared';
import type { WalletFile } from '../wallet-file.js';
import { buildTransaction } from './build-transaction.js';
import { feeRate } from './fee-rate.js';
import { proveAncestry } from './source-transactions.js';

/** The x402 network name of a chain network. */
export const X402_NETWORK: Record<ChainNetwork, string> = { main: 'bsv:mainnet', test: 'bsv:testnet', local: 'bsv:local' };

/**
 * The paying client's `pay` for this wallet: the transaction built as `pay` builds one (the wallet's coins,
 * change back, the broadcaster's fee rate), not broadcast (the gate does that once it accepts it), as BEEF
 * with the inputs' unmined ancestors down to mined ones and their merkle paths. `fees` collects the fee paid.
 */
export function payResource(context: { chain: ChainClient; arcUrl: string; wallet: WalletFile }, fees: Map<string, number>) {
  return async ({ lockingScript, satoshis }: PayRequest): Promise<PayResult> => {
    let script: LockingScript;
    try {
      script = LockingScript.fromHex(lockingScript);
    } catch {
      throw new AppError('failed_precondition', 'The 402 asks to pay a script that is not one.');
    }
    const { tx, fee } = await buildTransaction({
      chain: context.chain,
      wallet: context.wallet,
      outputs: [{ lockingScript: script, satoshis }],
      satsPerKb: await feeRate(context.arcUrl),
    });
    await proveAncestry(context.chain, tx);
    const vout = tx.outputs.findIndex((output) => output.satoshis === satoshis && output.lockingScript.toHex() === script.toHex());
    const txid = tx.id('hex');
    fees.set(txid, fee);
    return { beef: tx.toBEEF(), vout, txid, sender: context.wallet.publicKey };
  };
}

/** The paying client's credentials kept in the wallet file, so a later `fetch` uses what an earlier one bought. */
export function walletCredentials(wallet: WalletFile): CredentialStore {
  return {
    find: (origin, method, path, nowSeconds) =>
      findCredential(
        wallet.credentials.map((kept) => ({ ...kept, expiresAt: kept.expires_at })),
        origin,
        method,
        path,
        nowSeconds,
      ),
    save: ({ token, origin, method, path, expiresAt }) => wallet.saveCredential({ token, origin, method, path, expires_at: expiresAt }),
    drop: (token) => wallet.dropCredential(token),
  };
}
