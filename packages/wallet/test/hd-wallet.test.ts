import { readFileSync, writeFileSync } from 'node:fs';
import { HD, PrivateKey, Utils } from '@bsv/sdk';
import { requestFaucet } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hdKeys, receiveAddress } from '../src/hd-keys.js';
import { scanReceiveBranch } from '../src/scan-receive-branch.js';
import { startTestChain, wallet, walletPath, type TestChain } from './support.js';

describe('HD keys', () => {
  it("gives BIP32 test vector 1's master xpub and the identity key m/0' of its seed", () => {
    const keys = hdKeys(Utils.toArray('000102030405060708090a0b0c0d0e0f', 'hex'));
    expect(keys.xpub).toBe(
      'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
    );
    expect(keys.xprv).toBe(
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    );
    // Vector 1's m/0H is xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw.
    expect(keys.identityKey.toPublicKey().toString()).toBe('035a784662a4a20a65bf6aab9ae98a6c068a81c52e4b032c0fb5400c706cfccc56');
  });

  it("gives BIP32 test vector 2's master xpub, and its receive keys are the children m/0/n of that xpub", () => {
    const seed =
      'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542';
    const keys = hdKeys(Utils.toArray(seed, 'hex'));
    expect(keys.xpub).toBe(
      'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
    );
    // Vector 2's m/0 is xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH.
    const branch = HD.fromString(
      'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
    );
    for (const n of [0, 1, 19]) expect(keys.receiveKey(n).toAddress('testnet')).toBe(branch.deriveChild(n).pubKey.toAddress('testnet'));
  });

  it("derives m/0/n of an xpub as wallets do: BIP44's published addresses of the 'abandon ... about' account", () => {
    // m/44'/0'/0' of the BIP39 mnemonic "abandon" x11 "about", and its first receive addresses (m/44'/0'/0'/0/n).
    const account = 'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';
    expect([0, 1, 2].map((n) => receiveAddress(account, n, 'mainnet'))).toEqual([
      '1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA',
      '1Ak8PffB2meyfYnbXZR9EGfLfFZVpzJvQP',
      '1MNF5RSaabFwcbtJirJwKnDytsXXEsVsNb',
    ]);
  });
});

describe('the gap-limit scan of the receive branch', () => {
  const scan = (used: number[], gapLimit?: number) => {
    const asked: number[] = [];
    return scanReceiveBranch(async (n) => {
      asked.push(n);
      return used.includes(n);
    }, gapLimit).then((found) => ({ found, asked: asked.sort((a, b) => a - b) }));
  };

  it('asks children 0 to 19 of an unused branch, and no more', async () => {
    expect(await scan([])).toEqual({ found: [], asked: Array.from({ length: 20 }, (_, n) => n) });
  });

  it('follows used children while fewer than 20 unused ones separate them', async () => {
    const { found, asked } = await scan([0, 5, 25, 45]);
    expect(found).toEqual([0, 5, 25, 45]);
    expect(asked.at(-1)).toBe(65);
  });

  it('stops after 20 unused children in a row, as the service never hands out a child past that', async () => {
    expect((await scan([0, 21])).found).toEqual([0]);
    expect((await scan([20])).found).toEqual([]);
    expect((await scan([19])).found).toEqual([19]);
    expect((await scan([2, 9], 5)).found).toEqual([2]);
  });
});

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

type Created = { address: string; public_key: string; xpub: string };

/** Each command below asks the chain about 20 children or more: slow on a loaded machine, not wrong. */
const SLOW = 120_000;

describe('an HD wallet from the command line', () => {
  it(
    'create prints the xpub beside the address and identity key, and `xpub` prints it again',
    async () => {
      const env = { ...chain.env, CTK_WALLET_FILE: walletPath() };
      const created = await wallet(['create'], env);
      expect(created.code).toBe(0);
      const { seed } = JSON.parse(readFileSync(env.CTK_WALLET_FILE, 'utf8')) as { seed: string };
      const keys = hdKeys(Utils.toArray(seed, 'hex'));
      expect(created.out).toEqual([
        expect.stringContaining('Created a local wallet'),
        `address:    ${keys.identityKey.toAddress('testnet')}`,
        `public key: ${keys.identityKey.toPublicKey().toString()}`,
        `xpub:       ${keys.xpub}`,
      ]);
      expect((await wallet(['xpub'], env)).out).toEqual([keys.xpub]);
      expect((await wallet(['xpub', '--json'], env)).json()).toEqual({ xpub: keys.xpub });
      expect((await wallet(['address'], env)).out).toEqual([keys.identityKey.toAddress('testnet')]);
      // The identity key is not a child of the xpub's receive branch: its WIF and the xpub together reveal no other key.
      expect((await wallet(['export'], env)).out).toEqual([keys.identityKey.toWif([0xef])]);
    },
    SLOW,
  );

  it(
    "balance counts the coins the xpub's children m/0/n received, found with the gap limit, and the wallet spends them",
    async () => {
      const env = { ...chain.env, CTK_WALLET_FILE: walletPath() };
      const created = (await wallet(['create', '--json'], env)).json<Created>();
      const child = (n: number) => receiveAddress(created.xpub, n, 'testnet');
      // As the service pays them: children of the registered xpub, 3 and 23 within the gap limit; 44 is 21 past 23.
      await requestFaucet(chain.running.url, child(3), 30_000);
      await requestFaucet(chain.running.url, child(23), 20_000);
      await requestFaucet(chain.running.url, child(44), 7_000);
      await requestFaucet(chain.running.url, created.address, 1_000);

      const balance = await wallet(['balance', '--json'], env);
      expect(balance.json()).toMatchObject({ address: created.address, satoshis: 51_000, unconfirmed: 51_000, coins: 3 });
      expect(balance.json<{ addresses: unknown[] }>().addresses).toEqual([
        { address: created.address, path: "m/0'", satoshis: 1_000, coins: 1 },
        { address: child(3), path: 'm/0/3', satoshis: 30_000, coins: 1 },
        { address: child(23), path: 'm/0/23', satoshis: 20_000, coins: 1 },
      ]);
      expect((await wallet(['balance'], env)).out).toEqual([
        '51000 satoshis (0 confirmed, 51000 unconfirmed) in 3 coins',
        `  1000 at ${created.address} (m/0', the identity key's)`,
        `  30000 at ${child(3)} (m/0/3)`,
        `  20000 at ${child(23)} (m/0/23)`,
      ]);

      // 45,000 satoshis need both children's coins, each signed with its own key; the change goes to the address.
      const payee = PrivateKey.fromRandom().toAddress('testnet');
      const paid = await wallet(['pay', `bitcoin:${payee}?amount=0.00045`, '--json'], env);
      expect(paid.code, paid.err.join('\n')).toBe(0);
      const { fee } = paid.json<{ fee: number }>();
      expect((await chain.client.listUnspent(payee)).map((coin) => coin.satoshis)).toEqual([45_000]);
      expect((await wallet(['balance', '--json'], env)).json()).toMatchObject({ satoshis: 51_000 - 45_000 - fee });
      // The history covers the children too: what each payment to them brought, and what the payment took.
      const { transactions } = (await wallet(['history', '--json'], env)).json<{ transactions: Array<{ net_satoshis: number }> }>();
      expect(transactions.map((row) => row.net_satoshis).sort((a, b) => a - b)).toEqual([-45_000 - fee, 1_000, 20_000, 30_000]);
    },
    SLOW,
  );
});

describe('a single-key wallet file from before HD wallets', () => {
  it(
    'is read as before: its address, key, balance and payments; `xpub` says it has none',
    async () => {
      const file = walletPath();
      const key = PrivateKey.fromRandom();
      const wif = key.toWif([0xef]);
      writeFileSync(
        file,
        JSON.stringify({ format: 'ctk-wallet/1', network: 'local', wif, created_at: '2026-01-01T00:00:00.000Z', payments: [] }),
        { mode: 0o600 },
      );
      const env = { ...chain.env, CTK_WALLET_FILE: file };
      expect((await wallet(['address'], env)).out).toEqual([key.toAddress('testnet')]);
      expect((await wallet(['export'], env)).out).toEqual([wif]);
      await wallet(['faucet', '10000'], env);
      expect((await wallet(['balance'], env)).out).toEqual([
        `10000 satoshis (0 confirmed, 10000 unconfirmed) in 1 coin at ${key.toAddress('testnet')}`,
      ]);
      const payee = PrivateKey.fromRandom().toAddress('testnet');
      expect((await wallet(['pay', `bitcoin:${payee}?amount=0.00004`], env)).code).toBe(0);
      expect((await chain.client.listUnspent(payee)).map((coin) => coin.satoshis)).toEqual([4_000]);
      const xpub = await wallet(['xpub'], env);
      expect(xpub.code).toBe(1);
      expect(xpub.err).toEqual([
        `ctk-wallet: The wallet at ${file} holds a single key (made before HD wallets), so it has no xpub: make an HD wallet with \`ctk-wallet create --file <another file>\`.`,
      ]);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'ctk-wallet/1', wif });
    },
    SLOW,
  );
});

describe("the faucet's default", () => {
  it(
    "pays several typical orders at the embedded default's rate: $22.70 at USD=20000 satoshis a cent is 45,400,000",
    async () => {
      const env = { ...chain.env, CTK_WALLET_FILE: walletPath() };
      await wallet(['create'], env);
      const funded = await wallet(['faucet'], env);
      expect(funded.code, funded.err.join('\n')).toBe(0);
      for (let order = 0; order < 5; order++) {
        const address = PrivateKey.fromRandom().toAddress('testnet');
        const paid = await wallet(['pay', `bitcoin:${address}?amount=0.454`], env);
        expect(paid.code, paid.err.join('\n')).toBe(0);
      }
    },
    SLOW,
  );
});
