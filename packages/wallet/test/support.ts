import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChainClient, type ChainClient } from '@ctk/chain';
import { startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import { runWallet } from '../src/index.js';

export type TestChain = { running: RunningLocalChain; client: ChainClient; env: Record<string, string>; close(): Promise<void> };

/** A local chain on a free port, the environment that points the wallet at it, and a client to look at it. */
export async function startTestChain(): Promise<TestChain> {
  const running = await startLocalChain({ port: 0 });
  const client = createChainClient({ network: 'local', localUrl: running.url, timeoutMs: 5_000, retries: 1 });
  return {
    running,
    client,
    env: { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: running.url, CHAIN_RETRIES: '0' },
    close: () => running.close(),
  };
}

export type Run = { code: number; out: string[]; err: string[]; json<T = Record<string, unknown>>(): T };

/** Runs the wallet in process with its own environment and captures what it prints. */
export async function wallet(args: string[], env: Record<string, string>): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runWallet(args, { env, out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err, json: <T>() => JSON.parse(out.join('\n')) as T };
}

/** A wallet file path in a fresh temporary directory. */
export function walletPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'ctk-wallet-')), 'wallet.json');
}

/** A wallet created and funded from the faucet; returns its env (with CTK_WALLET_FILE) and address. */
export async function fundedWallet(
  chain: TestChain,
  satoshis: number,
): Promise<{ env: Record<string, string>; address: string; file: string }> {
  const file = walletPath();
  const env = { ...chain.env, CTK_WALLET_FILE: file };
  const created = await wallet(['create', '--json'], env);
  if (created.code !== 0) throw new Error(created.err.join('\n'));
  const funded = await wallet(['faucet', String(satoshis), '--json'], env);
  if (funded.code !== 0) throw new Error(funded.err.join('\n'));
  return { env, address: created.json<{ address: string }>().address, file };
}

/** A port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
