import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { createChainClient, type ChainClient } from '../src/index.js';
import { requestFaucet, startLocalChain, type RunningLocalChain, type StartLocalChainOptions } from '../src/local/index.js';

export type TestChain = { running: RunningLocalChain; client: ChainClient; close(): Promise<void> };

/** A local chain on a free port and a client for it: the client takes the same adapters as for main and test. */
export async function startTestChain(options: StartLocalChainOptions = {}): Promise<TestChain> {
  const running = await startLocalChain({ port: 0, ...options });
  const client = createChainClient({ network: 'local', localUrl: running.url, timeoutMs: 5_000, retries: 1, retryBaseMs: 20 });
  return { running, client, close: () => running.close() };
}

export type Wallet = { key: PrivateKey; address: string };

export function newWallet(): Wallet {
  const key = PrivateKey.fromRandom();
  return { key, address: key.toAddress('testnet') };
}

/** Funds a fresh wallet from the faucet; the faucet transaction comes back parsed, to spend from. */
export async function fundedWallet(chain: TestChain, satoshis: number): Promise<Wallet & { source: Transaction; vout: number }> {
  const wallet = newWallet();
  const payment = await requestFaucet(chain.running.url, wallet.address, satoshis);
  return { ...wallet, source: Transaction.fromHex(payment.raw_tx), vout: payment.vout };
}

/**
 * A P2PKH payment from one output, signed with @bsv/sdk: `satoshis` to `to`, the rest less `fee` back to
 * the payer. `signer` signs instead of the owner when given (a bad signature).
 */
export async function payment(input: {
  source: Transaction;
  vout: number;
  key: PrivateKey;
  to: string;
  satoshis: number;
  fee?: number;
  signer?: PrivateKey;
}): Promise<Transaction> {
  const fee = input.fee ?? 100;
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: input.source,
    sourceOutputIndex: input.vout,
    unlockingScriptTemplate: new P2PKH().unlock(input.signer ?? input.key),
  });
  tx.addOutput({ lockingScript: new P2PKH().lock(input.to), satoshis: input.satoshis });
  const change = input.source.outputs[input.vout]!.satoshis! - input.satoshis - fee;
  if (change > 0) tx.addOutput({ lockingScript: new P2PKH().lock(input.key.toAddress('testnet')), satoshis: change });
  await tx.sign();
  return tx;
}

/** The AppError a promise rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}
