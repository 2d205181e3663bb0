import { LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { mineBlocks, requestFaucet } from '@ctk/chain/local';
import { expect } from 'vitest';
import { bearer, type Onboarded, type Gateway } from './harness.js';
import type { PaymailStack } from './paymail-harness.js';

/** A new payment-gate key of the organisation (its owner's API key makes it). */
export async function createPaygateKey(of: Onboarded, on: Gateway): Promise<{ id: string; key: string }> {
  const created = await on.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${of.handle}/paygate-keys`,
    headers: bearer(of.key),
    payload: { name: 'weather API' },
  });
  expect(created.statusCode).toBe(201);
  return { id: created.json().id, key: created.json().key };
}

/** A customer's coin: a faucet output to its key, mined, its transaction carrying the merkle path the chain gives. */
export type Coin = { key: PrivateKey; source: Transaction; vout: number; satoshis: number };

/** `count` customers' coins from the local chain's faucet, mined in one block: a BEEF spending one proves itself. */
export async function minedCoins(stack: PaymailStack, count: number, satoshis = 100_000): Promise<Coin[]> {
  const coins: Coin[] = [];
  for (let i = 0; i < count; i++) {
    const key = PrivateKey.fromRandom();
    const faucet = await requestFaucet(stack.chain.url, key.toAddress('testnet'), satoshis);
    coins.push({ key, source: Transaction.fromHex(faucet.raw_tx), vout: faucet.vout, satoshis });
  }
  await mineBlocks(stack.chain.url);
  for (const coin of coins) coin.source.merklePath = (await stack.chainClient.getStatus(coin.source.id('hex'))).merklePath;
  return coins;
}

/** A transaction spending `coin`: `satoshis` to `lockingScript` at output 0, the change back at output 1. Signed, not broadcast. */
export async function paying(coin: Coin, lockingScript: string, satoshis: number): Promise<Transaction> {
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: coin.source, sourceOutputIndex: coin.vout, unlockingScriptTemplate: new P2PKH().unlock(coin.key) });
  tx.addOutput({ lockingScript: LockingScript.fromHex(lockingScript), satoshis });
  tx.addOutput({ lockingScript: new P2PKH().lock(coin.key.toAddress('testnet')), satoshis: coin.satoshis - satoshis - 200 });
  await tx.sign();
  return tx;
}
