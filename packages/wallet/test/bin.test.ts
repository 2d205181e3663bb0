import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, walletPath, type TestChain } from './support.js';

const BIN = fileURLToPath(new URL('../bin/ctk-wallet.mjs', import.meta.url));

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

/** The installed command, as a newcomer runs it (`pnpm wallet ...` runs this file). */
async function ctkWallet(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the ctk-wallet command', () => {
  it('creates, funds and shows a balance, exiting 0', async () => {
    const file = walletPath();
    const env = { ...chain.env, CTK_WALLET_FILE: file };
    expect((await ctkWallet(['create'], env)).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const faucet = await ctkWallet(['faucet', '20000'], env);
    expect(faucet).toMatchObject({ code: 0, stderr: '' });
    expect(faucet.stdout).toMatch(/^Received 20000 satoshis from the faucet: [0-9a-f]{64}\n$/);
    expect((await ctkWallet(['balance'], env)).stdout).toMatch(/^20000 satoshis \(0 confirmed, 20000 unconfirmed\)/);
  });

  it('exits 1 with one line on stderr when something is wrong', async () => {
    const run = await ctkWallet(['balance'], { ...chain.env, CTK_WALLET_FILE: walletPath() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^ctk-wallet: No wallet at /);
  });

  it('prints its usage without a command', async () => {
    const run = await ctkWallet([], chain.env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ctk-wallet <command>/);
  });
});
