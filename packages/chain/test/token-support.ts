import { P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { cosignOwnerUnlock, tokenLock } from '../src/index.js';
import { requestStablecoinFaucet } from '../src/local/index.js';
import { fundedWallet, newWallet, type TestChain, type Wallet } from './support.js';

/** A coin to spend: the transaction that made it and its output index. */
export type Held = { source: Transaction; vout: number };

/** A fresh wallet holding `amount` units of the local chain's stablecoin (from its faucet) and `satoshis` for fees. */
export async function stablecoinHolder(chain: TestChain, amount: bigint, satoshis = 20_000): Promise<Wallet & { usdx: Held; fees: Held }> {
  const holder = await fundedWallet(chain, satoshis);
  const paid = await requestStablecoinFaucet(chain.running.url, holder.address, amount);
  return {
    ...holder,
    usdx: { source: Transaction.fromHex(paid.rawtx), vout: paid.vout },
    fees: { source: holder.source, vout: holder.vout },
  };
}

export type TokenOutputPlan = { address: string; amount: bigint; tokenId?: string; cosignerPublicKey?: string };

/**
 * A token transfer as a wallet builds one: the token outputs in (`cosigned` ones signed by the owner only,
 * for the cosigner to complete; the others P2PKH), a fee coin, the planned token outputs of 1 satoshi, the
 * rest of the fee coin back to `key`.
 */
export async function tokenTransfer(input: {
  key: PrivateKey;
  tokens: Held[];
  tokenId: string;
  cosigned: boolean;
  fees: Held;
  outputs: TokenOutputPlan[];
  fee?: number;
}): Promise<Transaction> {
  const tx = new Transaction();
  for (const held of input.tokens) {
    tx.addInput({
      sourceTransaction: held.source,
      sourceOutputIndex: held.vout,
      unlockingScriptTemplate: input.cosigned ? cosignOwnerUnlock(input.key) : new P2PKH().unlock(input.key),
      sequence: 0xffffffff,
    });
  }
  tx.addInput({
    sourceTransaction: input.fees.source,
    sourceOutputIndex: input.fees.vout,
    unlockingScriptTemplate: new P2PKH().unlock(input.key),
  });
  for (const output of input.outputs) {
    tx.addOutput({
      satoshis: 1,
      lockingScript: tokenLock({
        ownerAddress: output.address,
        inscription: { op: 'transfer', tokenId: output.tokenId ?? input.tokenId, amount: output.amount },
        cosignerPublicKey: output.cosignerPublicKey,
      }),
    });
  }
  const fee = input.fee ?? 300;
  const change = input.fees.source.outputs[input.fees.vout]!.satoshis! + input.tokens.length - input.outputs.length - fee;
  tx.addOutput({ satoshis: change, lockingScript: new P2PKH().lock(input.key.toAddress('testnet')) });
  await tx.sign();
  return tx;
}

/** GET a path of the local chain: its status and JSON body. */
export async function getJson<T = unknown>(chain: TestChain, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${chain.running.url}${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

/** POST JSON to a path of the local chain: its status and JSON body. */
export async function postJson<T = unknown>(chain: TestChain, path: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${chain.running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

export type Txo = {
  txid: string;
  vout: number;
  id: string;
  op: string;
  amt: string;
  owner: string;
  status: number;
  reason: string | null;
  script: string;
  cosigner?: string;
};
export type Balance = { id: string; sym: string | null; dec: number; all: { confirmed: string; pending: string } };

export const base64Script = (tx: Transaction, vout: number) => Utils.toBase64(tx.outputs[vout]!.lockingScript.toBinary());

export { newWallet };
