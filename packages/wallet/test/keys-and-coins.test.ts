import { readFileSync, statSync } from 'node:fs';
import { BSM, PublicKey, Signature, Utils } from '@bsv/sdk';
import { mineBlocks } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hdKeys } from '../src/hd-keys.js';
import { closedPort, fundedWallet, startTestChain, wallet, walletPath, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

describe('create, address and export', () => {
  it('creates a seed in a file only its owner can read, and prints the address and public key, never a key', async () => {
    const file = walletPath();
    const env = { ...chain.env, CTK_WALLET_FILE: file };
    const created = await wallet(['create'], env);
    expect(created.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { seed } = JSON.parse(readFileSync(file, 'utf8'));
    const key = hdKeys(Utils.toArray(seed, 'hex')).identityKey;
    const wif = key.toWif([0xef]);
    expect(created.out.join('\n')).toContain(key.toAddress('testnet'));
    expect(created.out.join('\n')).toContain(key.toPublicKey().toString());
    expect(created.out.join('\n')).not.toContain(wif);
    expect(created.out.join('\n')).not.toContain(seed);
    expect((await wallet(['address'], env)).out).toEqual([key.toAddress('testnet')]);
    expect((await wallet(['export'], env)).out).toEqual([wif]);
  });

  it('refuses to replace an existing wallet unless forced', async () => {
    const env = { ...chain.env, CTK_WALLET_FILE: walletPath() };
    const first = (await wallet(['create', '--json'], env)).json<{ address: string }>();
    const again = await wallet(['create'], env);
    expect(again.code).toBe(1);
    expect(again.err).toEqual([expect.stringMatching(/^ctk-wallet: A wallet already exists at .* --force/)]);
    expect((await wallet(['address', '--json'], env)).json<{ address: string }>().address).toBe(first.address);
    const forced = await wallet(['create', '--force', '--json'], env);
    expect(forced.json<{ address: string }>().address).not.toBe(first.address);
  });

  it('takes --file over CTK_WALLET_FILE', async () => {
    const file = walletPath();
    const created = (await wallet(['create', '--file', file, '--json'], { ...chain.env, CTK_WALLET_FILE: walletPath() })).json<{
      file: string;
    }>();
    expect(created.file).toBe(file);
  });
});

describe('faucet and balance', () => {
  it('gets coins from the local faucet: unconfirmed, then confirmed once mined', async () => {
    const { env, address } = await fundedWallet(chain, 250_000);
    expect((await wallet(['balance', '--json'], env)).json()).toEqual({
      address,
      satoshis: 250_000,
      confirmed: 0,
      unconfirmed: 250_000,
      coins: 1,
      addresses: [{ address, path: "m/0'", satoshis: 250_000, coins: 1 }],
    });
    await mineBlocks(chain.running.url, 1);
    const balance = await wallet(['balance'], env);
    expect(balance.out).toEqual([`250000 satoshis (250000 confirmed, 0 unconfirmed) in 1 coin at ${address}`]);
  });

  it('has no faucet outside the local network', async () => {
    const file = walletPath();
    await wallet(['create'], { ...chain.env, CHAIN_NETWORK: 'test', CTK_WALLET_FILE: file });
    const run = await wallet(['faucet'], { ...chain.env, CHAIN_NETWORK: 'test', CTK_WALLET_FILE: file });
    expect(run.code).toBe(1);
    expect(run.err).toEqual(["ctk-wallet: The faucet is the local chain's; CHAIN_NETWORK is test."]);
  });

  it('refuses a wallet made for another network', async () => {
    const file = walletPath();
    await wallet(['create'], { ...chain.env, CTK_WALLET_FILE: file });
    const run = await wallet(['balance'], { ...chain.env, CHAIN_NETWORK: 'main', CTK_WALLET_FILE: file });
    expect(run.err).toEqual([`ctk-wallet: The wallet at ${file} is for the local network, and CHAIN_NETWORK is main.`]);
  });
});

describe('sign-message', () => {
  it("signs with BSM so anyone can verify against the wallet's public key", async () => {
    const env = { ...chain.env, CTK_WALLET_FILE: walletPath() };
    const { public_key: publicKey } = (await wallet(['create', '--json'], env)).json<{ public_key: string }>();
    const signed = (await wallet(['sign-message', 'pay 402 for /report', '--json'], env)).json<{ signature: string; public_key: string }>();
    expect(signed.public_key).toBe(publicKey);
    const signature = Signature.fromCompact(signed.signature, 'base64');
    expect(BSM.verify(Utils.toArray('pay 402 for /report', 'utf8'), signature, PublicKey.fromString(publicKey))).toBe(true);
    expect(BSM.verify(Utils.toArray('pay 403 for /report', 'utf8'), signature, PublicKey.fromString(publicKey))).toBe(false);
  });
});

describe('clear errors, exit code 1, one line', () => {
  it('without a wallet file', async () => {
    const file = walletPath();
    const run = await wallet(['balance'], { ...chain.env, CTK_WALLET_FILE: file });
    expect({ code: run.code, err: run.err }).toEqual({
      code: 1,
      err: [`ctk-wallet: No wallet at ${file}: run \`ctk-wallet create\` first (or pass --file).`],
    });
  });

  it('when the chain is unreachable', async () => {
    const env = { ...chain.env, CTK_WALLET_FILE: walletPath(), CHAIN_LOCAL_URL: `http://127.0.0.1:${await closedPort()}` };
    await wallet(['create'], env);
    for (const command of ['balance', 'faucet']) {
      const run = await wallet([command], env);
      expect(run.code).toBe(1);
      expect(run.err).toEqual([
        expect.stringMatching(/^ctk-wallet: .* is unreachable .*: is the chain running \(npm run up\), and CHAIN_LOCAL_URL right\?$/),
      ]);
    }
  });

  it('for an unknown command or flag', async () => {
    expect((await wallet(['fly'], chain.env)).err).toEqual(['ctk-wallet: Unknown command "fly" (see ctk-wallet help).']);
    const flag = await wallet(['balance', '--colour'], chain.env);
    expect(flag.code).toBe(1);
    expect(flag.err[0]).toMatch(/^ctk-wallet: Unknown option '--colour'/);
  });
});
