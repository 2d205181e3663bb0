import { PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { mineBlocks, requestFaucet, requestStablecoinFaucet } from '@ctk/chain/local';
import { deployBsv21Token } from 'js-1sat-ord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveAddress } from '../src/hd-keys.js';
import { fundedWallet, startTestChain, wallet, walletPath, type TestChain } from './support.js';

let chain: TestChain;
let usdx: { tokenId: string; cosignerPublicKey: string };
beforeAll(async () => {
  chain = await startTestChain();
  usdx = await chain.client.stablecoin();
});
afterAll(() => chain?.close());

type TokensJson = {
  tokens: Array<{
    token_id: string;
    symbol: string;
    decimals: number;
    amount: string;
    confirmed: string;
    pending: string;
    addresses: unknown[];
  }>;
};

/** A funded wallet holding `units` of the stablecoin from the stablecoin faucet. */
async function stablecoinWallet(units: string) {
  const funded = await fundedWallet(chain, 100_000);
  const paid = await wallet(['stablecoin-faucet', units, '--json'], funded.env);
  if (paid.code !== 0) throw new Error(paid.err.join('\n'));
  return funded;
}

describe('tokens and the stablecoin faucet', () => {
  it('shows the stablecoin the faucet paid: units, the amount with its 5 decimals, pending then confirmed', async () => {
    const { env, address } = await fundedWallet(chain, 10_000);
    const paid = await wallet(['stablecoin-faucet'], env);
    expect(paid.out).toEqual([
      expect.stringMatching(/^Received 100\.00000 USDX \(10000000 units\) from the stablecoin faucet: [0-9a-f]{64}$/),
    ]);
    expect((await wallet(['tokens'], env)).out).toEqual([
      `100.00000 USDX (10000000 units: 0 confirmed, 10000000 pending), the stablecoin, token ${usdx.tokenId}`,
    ]);
    await mineBlocks(chain.running.url);
    expect((await wallet(['tokens', '--json'], env)).json<TokensJson & { address: string }>()).toEqual({
      address,
      tokens: [
        {
          token_id: usdx.tokenId,
          symbol: 'USDX',
          decimals: 5,
          stablecoin: true,
          units: '10000000',
          amount: '100.00000',
          confirmed: '10000000',
          pending: '0',
          addresses: [{ address, path: "m/0'", confirmed: '10000000', pending: '0' }],
        },
      ],
    });
  });

  it('finds the stablecoin at a receive child m/0/n that holds nothing else (a merchant paid in it)', async () => {
    const { env, file } = await fundedWallet(chain, 10_000);
    const { xpub } = (await wallet(['xpub', '--json'], { ...env, CTK_WALLET_FILE: file })).json<{ xpub: string }>();
    const child = receiveAddress(xpub, 3, 'testnet');
    await requestStablecoinFaucet(chain.running.url, child, 250_000n);
    const shown = await wallet(['tokens'], env);
    expect(shown.out).toEqual([
      expect.stringMatching(/^2\.50000 USDX \(250000 units: 0 confirmed, 250000 pending\)/),
      `  250000 units at ${child} (m/0/3)`,
    ]);

    const payee = await fundedWallet(chain, 1_000);
    const sent = await wallet(['send-token', '--token', 'stablecoin', '--to', payee.address, '--amount', '250000', '--json'], env);
    expect(sent.code).toBe(0);
    expect((await chain.client.tokenBalance(payee.address, usdx.tokenId)).pending).toBe(250_000n);
  });

  it('has no stablecoin faucet outside the local network', async () => {
    const file = walletPath();
    await wallet(['create'], { ...chain.env, CHAIN_NETWORK: 'test', CTK_WALLET_FILE: file });
    const run = await wallet(['stablecoin-faucet'], { ...chain.env, CHAIN_NETWORK: 'test', CTK_WALLET_FILE: file });
    expect(run.err).toEqual(["ctk-wallet: The stablecoin faucet is the local chain's; CHAIN_NETWORK is test."]);
  });
});

describe('send-token with the stablecoin', () => {
  it('sends units cosign-locked, the cosigner signs, the chain takes it: the payee holds them, the payer the rest', async () => {
    const payer = await stablecoinWallet('1000000');
    const payee = await fundedWallet(chain, 1_000);
    const sent = await wallet(['send-token', '--token', 'stablecoin', '--to', payee.address, '--amount', '400000'], payer.env);
    expect(sent.code).toBe(0);
    expect(sent.out[0]).toBe(`Sent 4.00000 USDX (400000 units) to ${payee.address}, cosigned.`);
    const txid = /^txid: ([0-9a-f]{64})$/.exec(sent.out[1]!)![1]!;
    expect(await chain.client.tokenOutputs(txid)).toEqual([
      expect.objectContaining({ amount: 400_000n, owner: payee.address, cosignerPublicKey: usdx.cosignerPublicKey, status: 'valid' }),
      expect.objectContaining({ amount: 600_000n, owner: payer.address, cosignerPublicKey: usdx.cosignerPublicKey, status: 'valid' }),
    ]);
    expect((await wallet(['tokens', '--json'], payee.env)).json<TokensJson>().tokens[0]).toMatchObject({
      pending: '400000',
      amount: '4.00000',
    });
    expect((await wallet(['tokens', '--json'], payer.env)).json<TokensJson>().tokens[0]).toMatchObject({ pending: '600000' });

    const tooMuch = await wallet(['send-token', '--token', 'stablecoin', '--to', payee.address, '--amount', '600001'], payer.env);
    expect(tooMuch.err).toEqual(['ctk-wallet: Insufficient USDX: the wallet holds 600000 units, the transfer needs 600001.']);
  });

  it('--no-cosign prints what the wallet signed, which the chain refuses; --print prints the cosigned hex, which it takes', async () => {
    const payer = await stablecoinWallet('50000');
    const payee = await fundedWallet(chain, 1_000);
    const args = ['send-token', '--token', 'stablecoin', '--to', payee.address, '--amount', '50000'];

    const unsigned = await wallet([...args, '--no-cosign'], payer.env);
    expect(unsigned.out).toEqual([expect.stringMatching(/^[0-9a-f]+$/)]);
    const owned = Transaction.fromHex(unsigned.out[0]!);
    expect((await chain.client.getStatus(owned.id('hex'))).state).toBe('unknown');
    await expect(chain.client.broadcast(unsigned.out[0]!)).rejects.toMatchObject({
      code: 'chain_rejected',
      details: { arc_status: 461, extra_info: expect.stringContaining('input 0') },
    });

    const printed = await wallet([...args, '--print', '--json'], payer.env);
    const { rawtx, cosigned, broadcast } = printed.json<{ rawtx: string; cosigned: boolean; broadcast: boolean }>();
    expect({ cosigned, broadcast }).toEqual({ cosigned: true, broadcast: false });
    expect((await chain.client.tokenBalance(payee.address, usdx.tokenId)).pending).toBe(0n);
    await chain.client.broadcast(rawtx);
    expect((await chain.client.tokenBalance(payee.address, usdx.tokenId)).pending).toBe(50_000n);
  });

  it('says what is missing or wrong, in one line', async () => {
    const payer = await stablecoinWallet('100');
    const send = (args: string[]) => wallet(['send-token', ...args], payer.env).then((run) => run.err);
    expect(await send(['--token', 'stablecoin', '--amount', '5'])).toEqual([
      'ctk-wallet: Give the token, the payee and the units: ctk-wallet send-token --token <id|stablecoin> --to <address> --amount <units>.',
    ]);
    expect(await send(['--token', 'USDX', '--to', payer.address, '--amount', '5'])).toEqual([
      'ctk-wallet: --token must be a token id (<txid>_<vout>) or "stablecoin", not "USDX".',
    ]);
    expect(await send(['--token', 'stablecoin', '--to', 'nobody', '--amount', '5'])).toEqual([
      'ctk-wallet: "nobody" is not a P2PKH address for the local network.',
    ]);
    expect(await send(['--token', 'stablecoin', '--to', payer.address, '--amount', '1.5'])).toEqual([
      'ctk-wallet: A token amount is a whole number of units from 1 to 9223372036854775807, not "1.5".',
    ]);
  });
});

describe('send-token with any BSV-21 token', () => {
  it('sends a P2PKH-held token as js-1sat-ord builds transfers, and shows it with --token', async () => {
    const payee = await fundedWallet(chain, 1_000);
    const holder = await fundedWallet(chain, 50_000);
    const issuer = PrivateKey.fromRandom();
    const funding = Transaction.fromHex((await requestFaucet(chain.running.url, issuer.toAddress('testnet'), 20_000)).raw_tx);
    const { tx: deploy } = (await deployBsv21Token({
      symbol: 'BEAN',
      decimals: 2,
      icon: `${'cd'.repeat(32)}_0`,
      utxos: [{ txid: funding.id('hex'), vout: 0, satoshis: 20_000, script: Utils.toBase64(funding.outputs[0]!.lockingScript.toBinary()) }],
      initialDistribution: { address: holder.address, tokens: 1000 },
      paymentPk: issuer,
      destinationAddress: holder.address,
    })) as { tx: Transaction };
    await chain.client.broadcast(deploy.toHex());
    const tokenId = `${deploy.id('hex')}_0`;

    const shown = await wallet(['tokens', '--token', tokenId], holder.env);
    expect(shown.out).toContain(
      `0.00 USDX (0 units: 0 confirmed, 0 pending), the stablecoin, token ${usdx.tokenId}`.replace('0.00 USDX', '0.00000 USDX'),
    );
    expect(shown.out).toContain(`1000.00 BEAN (100000 units: 0 confirmed, 100000 pending), token ${tokenId}`);

    const sent = await wallet(['send-token', '--token', tokenId, '--to', payee.address, '--amount', '1250', '--json'], holder.env);
    expect(sent.code).toBe(0);
    const { txid, cosigned } = sent.json<{ txid: string; cosigned: boolean }>();
    expect(cosigned).toBe(false);
    expect(await chain.client.tokenOutputs(txid)).toEqual([
      expect.objectContaining({ amount: 1250n, owner: payee.address, status: 'valid' }),
      expect.objectContaining({ amount: 98_750n, owner: holder.address, status: 'valid' }),
    ]);
    expect((await chain.client.tokenOutputs(txid))!.every((output) => output.cosignerPublicKey === undefined)).toBe(true);
  });
});
