import { Transaction } from '@bsv/sdk';
import { deployBsv21Token, transferOrdTokens } from 'js-1sat-ord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlocks } from '../src/local/index.js';
import { fundedWallet, newWallet, payment, startTestChain, type TestChain, type Wallet } from './support.js';
import { base64Script, getJson, tokenTransfer, type Balance, type Held, type Txo } from './token-support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.close());

/** js-1sat-ord's declarations do not resolve under NodeNext (extensionless imports): its TokenType.BSV21 by value. */
const BSV21 = 'bsv21';

/** A token of 1,000,000.00 (100,000,000 units, 2 decimals) deployed and minted by js-1sat-ord to a fresh wallet. */
async function deployedToken(): Promise<{ issuer: Wallet; deploy: Transaction; tokenId: string; fees: Held }> {
  const issuer = await fundedWallet(chain, 100_000);
  const { tx: built } = (await deployBsv21Token({
    symbol: 'TEST',
    decimals: 2,
    icon: `${'cd'.repeat(32)}_0`,
    utxos: [{ txid: issuer.source.id('hex'), vout: issuer.vout, satoshis: 100_000, script: base64Script(issuer.source, issuer.vout) }],
    initialDistribution: { address: issuer.address, tokens: 1_000_000 },
    paymentPk: issuer.key,
    destinationAddress: issuer.address,
  })) as { tx: Transaction };
  // Read back from its bytes: js-1sat-ord gives its inputs stand-in source transactions (outputs only).
  const deploy = Transaction.fromHex(built.toHex());
  await chain.client.broadcast(deploy);
  return { issuer, deploy, tokenId: `${deploy.id('hex')}_0`, fees: { source: deploy, vout: 1 } };
}

const balances = async (address: string) => (await getJson<Balance[]>(chain, `/api/bsv20/${address}/balance`)).body;
const txOutputs = async (txid: string) => (await getJson<Txo[]>(chain, `/api/bsv20/txid/${txid}`)).body;

describe("the local chain's token index, read through 1Sat's /api/bsv20 shapes", () => {
  it('holds a deploy+mint at its own outpoint: pending in the mempool, confirmed once mined', async () => {
    const { issuer, deploy, tokenId } = await deployedToken();
    expect(await balances(issuer.address)).toEqual([
      { id: tokenId, sym: 'TEST', dec: 2, all: { confirmed: '0', pending: '100000000' }, listed: { confirmed: '0', pending: '0' } },
    ]);
    await mineBlocks(chain.running.url);
    expect((await balances(issuer.address))[0]!.all).toEqual({ confirmed: '100000000', pending: '0' });
    expect(await txOutputs(deploy.id('hex'))).toEqual([
      expect.objectContaining({
        txid: deploy.id('hex'),
        vout: 0,
        id: tokenId,
        op: 'deploy+mint',
        amt: '100000000',
        owner: issuer.address,
        status: 1,
        reason: null,
      }),
    ]);
  });

  it("moves tokens with js-1sat-ord's transfer: the payee holds 1250 units, the payer the rest", async () => {
    const { issuer, deploy, tokenId, fees } = await deployedToken();
    const payee = newWallet();
    const { tx: transfer } = (await transferOrdTokens({
      protocol: BSV21,
      tokenID: tokenId,
      decimals: 2,
      utxos: [
        {
          txid: deploy.id('hex'),
          vout: fees.vout,
          satoshis: deploy.outputs[fees.vout]!.satoshis!,
          script: base64Script(deploy, fees.vout),
        },
      ],
      inputTokens: [{ txid: deploy.id('hex'), vout: 0, satoshis: 1, script: base64Script(deploy, 0), amt: '100000000', id: tokenId }],
      distributions: [{ address: payee.address, tokens: 12.5 }],
      paymentPk: issuer.key,
      ordPk: issuer.key,
    })) as { tx: Transaction };
    await chain.client.broadcast(transfer.toHex());

    const unspent = (await getJson<Txo[]>(chain, `/api/bsv20/${payee.address}/unspent?id=${tokenId}`)).body;
    expect(unspent).toEqual([
      expect.objectContaining({
        txid: transfer.id('hex'),
        vout: 0,
        outpoint: `${transfer.id('hex')}_0`,
        amt: '1250',
        id: tokenId,
        owner: payee.address,
        status: 1,
      }),
    ]);
    expect(Buffer.from(unspent[0]!.script, 'base64').toString('hex')).toBe(transfer.outputs[0]!.lockingScript.toHex());
    expect((await getJson<Txo[]>(chain, `/api/bsv20/${payee.address}/id/${tokenId}`)).body).toEqual(unspent);
    expect((await balances(issuer.address))[0]!.all).toEqual({ confirmed: '0', pending: '99998750' });
    expect(await getJson<Txo[]>(chain, `/api/bsv20/${issuer.address}/unspent?id=${'ab'.repeat(32)}_0`)).toEqual({ status: 200, body: [] });
  });

  it('mines a transfer that moves more than its inputs hold, and holds nothing in any of its outputs of that token', async () => {
    const { issuer, deploy, tokenId, fees } = await deployedToken();
    const payee = newWallet();
    const overspend = await tokenTransfer({
      key: issuer.key,
      tokens: [{ source: deploy, vout: 0 }],
      tokenId,
      cosigned: false,
      fees,
      outputs: [
        { address: payee.address, amount: 60_000_000n },
        { address: issuer.address, amount: 40_000_001n },
      ],
    });
    expect(await chain.client.broadcast(overspend)).toMatchObject({ state: 'seen' });
    expect(await txOutputs(overspend.id('hex'))).toEqual([
      expect.objectContaining({
        vout: 0,
        amt: '60000000',
        status: -1,
        reason: expect.stringMatching(/^insufficient inputs: .* hold 100000000, its transfer outputs move 100000001$/),
      }),
      expect.objectContaining({ vout: 1, amt: '40000001', status: -1 }),
    ]);
    expect(await balances(payee.address)).toEqual([]);
    expect(await balances(issuer.address)).toEqual([]);
  });

  it("burns what a valid transfer does not move, and an invalid output's tokens cannot be spent on", async () => {
    const { issuer, deploy, tokenId, fees } = await deployedToken();
    const payee = newWallet();
    const burn = await tokenTransfer({
      key: issuer.key,
      tokens: [{ source: deploy, vout: 0 }],
      tokenId,
      cosigned: false,
      fees,
      outputs: [{ address: payee.address, amount: 500n }],
    });
    await chain.client.broadcast(burn);
    expect(await txOutputs(burn.id('hex'))).toEqual([expect.objectContaining({ amt: '500', status: 1 })]);
    expect(await balances(issuer.address)).toEqual([]);

    const invalid = await tokenTransfer({
      key: issuer.key,
      tokens: [],
      tokenId,
      cosigned: false,
      fees: { source: burn, vout: 1 },
      outputs: [{ address: issuer.address, amount: 10n }],
    });
    await chain.client.broadcast(invalid);
    expect((await txOutputs(invalid.id('hex')))[0]).toMatchObject({ status: -1 });
    const fromInvalid = await tokenTransfer({
      key: issuer.key,
      tokens: [{ source: invalid, vout: 0 }],
      tokenId,
      cosigned: false,
      fees: { source: invalid, vout: 1 },
      outputs: [{ address: payee.address, amount: 10n }],
    });
    await chain.client.broadcast(fromInvalid);
    expect((await txOutputs(fromInvalid.id('hex')))[0]).toMatchObject({ status: -1 });
    expect((await balances(payee.address))[0]!.all).toEqual({ confirmed: '0', pending: '500' });
  });

  it('answers [] for a transaction without token outputs and 404 for one it does not know', async () => {
    const payer = await fundedWallet(chain, 10_000);
    expect(await getJson(chain, `/api/bsv20/txid/${payer.source.id('hex')}`)).toEqual({ status: 200, body: [] });
    expect((await getJson(chain, `/api/bsv20/txid/${'ab'.repeat(32)}`)).status).toBe(404);
    expect((await getJson(chain, '/api/bsv20/1111111111111111111111111/balance')).status).toBe(422);
  });

  it('takes back the token outputs of a BEEF the chain refuses: the spent token output is unspent again', async () => {
    const { issuer, deploy, tokenId, fees } = await deployedToken();
    const payee = newWallet();
    const transfer = await tokenTransfer({
      key: issuer.key,
      tokens: [{ source: deploy, vout: 0 }],
      tokenId,
      cosigned: false,
      fees,
      outputs: [{ address: payee.address, amount: 100_000_000n }],
    });
    const overspend = await payment({ source: transfer, vout: 1, key: issuer.key, to: newWallet().address, satoshis: 10_000_000, fee: 0 });
    await expect(chain.client.broadcast(overspend.toBEEF())).rejects.toMatchObject({ details: { arc_status: 465 } });
    expect((await getJson(chain, `/api/bsv20/txid/${transfer.id('hex')}`)).status).toBe(404);
    expect(await balances(payee.address)).toEqual([]);
    expect((await getJson<Txo[]>(chain, `/api/bsv20/${issuer.address}/unspent?id=${tokenId}`)).body).toEqual([
      expect.objectContaining({ txid: deploy.id('hex'), vout: 0, amt: '100000000', status: 1 }),
    ]);
  });
});
