import { Hash, P2PKH, PrivateKey, Utils } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlocks, requestFaucet } from '../src/local/index.js';
import { fundedWallet, newWallet, payment, startTestChain, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain({ faucetMaxSatoshis: 1_000_000 });
});
afterAll(() => chain.close());

const post = (path: string, body: string | Uint8Array, contentType: string) =>
  fetch(`${chain.running.url}${path}`, { method: 'POST', body, headers: { 'content-type': contentType } });

describe("the local chain's HTTP API in ARC's and WhatsOnChain's shapes", () => {
  it("takes a transaction as JSON {rawTx}, as hex text and as bytes, answering ARC's status", async () => {
    const payer = await fundedWallet(chain, 50_000);
    const tx = await payment({ ...payer, to: newWallet().address, satoshis: 10_000 });
    const response = await post('/v1/tx', JSON.stringify({ rawTx: tx.toHexEF() }), 'application/json');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      txid: tx.id('hex'),
      txStatus: 'SEEN_ON_NETWORK',
      status: 200,
      title: 'OK',
      blockHash: '',
      blockHeight: 0,
      extraInfo: '',
    });
    expect((await post('/v1/tx', tx.toHex(), 'text/plain')).status).toBe(200);
    expect((await post('/v1/tx', Uint8Array.from(tx.toBinary()), 'application/octet-stream')).status).toBe(200);
  });

  it("answers an error in ARC's RFC 7807 shape, and 404 for an unknown transaction", async () => {
    const response = await post('/v1/tx', 'not hex', 'text/plain');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'https://bitcoin-sv.github.io/arc/#/errors?id=_400',
      title: 'Bad request',
      status: 400,
    });

    const malformed = await post('/v1/tx', JSON.stringify({ rawTx: '0100' }), 'application/json');
    expect(malformed.status).toBe(463);
    expect(await malformed.json()).toMatchObject({
      status: 463,
      title: 'Malformed transaction',
      detail: 'Transaction is malformed and cannot be processed',
      extraInfo: expect.any(String),
    });

    const unknown = await fetch(`${chain.running.url}/v1/tx/${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 404, title: 'Not found', txid: 'ab'.repeat(32) });
  });

  it("answers a txid that is not 64 hex digits in ARC's shape (400), and reads one in capitals as in lower case", async () => {
    for (const id of ['abc', 'ab'.repeat(33), 'zz'.repeat(32), '']) {
      const response = await fetch(`${chain.running.url}/v1/tx/${id}`);
      expect({ id, status: response.status }).toEqual({ id, status: 400 });
      expect(await response.json()).toMatchObject({
        type: 'https://bitcoin-sv.github.io/arc/#/errors?id=_400',
        status: 400,
        title: 'Bad request',
        extraInfo: expect.stringContaining('64 hex digits'),
      });
    }
    const paid = await requestFaucet(chain.running.url, newWallet().address, 1_000);
    const upper = await fetch(`${chain.running.url}/v1/tx/${paid.txid.toUpperCase()}`);
    expect(upper.status).toBe(200);
    expect(await upper.json()).toMatchObject({ txid: paid.txid, txStatus: 'SEEN_ON_NETWORK' });
  });

  it("answers a body over the limit with 413 in ARC's shape and closes the connection, so the next request is answered", async () => {
    const huge = await post('/v1/tx', 'ab'.repeat(16 * 1024 * 1024 + 1), 'text/plain');
    expect(huge.status).toBe(413);
    expect(huge.headers.get('connection')).toBe('close');
    expect(await huge.json()).toMatchObject({
      type: 'https://bitcoin-sv.github.io/arc/#/errors?id=_413',
      status: 413,
      title: 'Request entity too large',
    });
    for (let i = 0; i < 3; i++) expect((await fetch(`${chain.running.url}/v1/policy`)).status).toBe(200);
  });

  it("serves WhatsOnChain's transaction, proof, address and block shapes", async () => {
    await mineBlocks(chain.running.url);
    const payee = newWallet();
    const paid = await requestFaucet(chain.running.url, payee.address, 12_345);
    const { height, blocks } = await mineBlocks(chain.running.url);
    const woc = chain.running.wocUrl;

    const tx = (await (await fetch(`${woc}/tx/hash/${paid.txid}`)).json()) as Record<string, unknown>;
    expect(tx).toMatchObject({ txid: paid.txid, blockhash: blocks[0]!.hash, blockheight: height, confirmations: 1 });
    expect((tx.vout as unknown[])[0]).toMatchObject({
      value: 0.00012345,
      n: 0,
      scriptPubKey: { type: 'pubkeyhash', addresses: [payee.address], hex: new P2PKH().lock(payee.address).toHex() },
    });
    expect(await (await fetch(`${woc}/tx/${paid.txid}/hex`)).text()).toBe(paid.raw_tx);

    const [proof] = (await (await fetch(`${woc}/tx/${paid.txid}/proof/tsc`)).json()) as Array<Record<string, unknown>>;
    expect(proof).toMatchObject({ index: 1, txOrId: paid.txid, target: blocks[0]!.hash });

    expect(await (await fetch(`${woc}/address/${payee.address}/unspent`)).json()).toEqual([
      { height, tx_pos: 0, tx_hash: paid.txid, value: 12_345 },
    ]);
    expect(await (await fetch(`${woc}/address/${payee.address}/history`)).json()).toEqual([{ tx_hash: paid.txid, height }]);
    expect(await (await fetch(`${woc}/address/${payee.address}/balance`)).json()).toEqual({ confirmed: 12_345, unconfirmed: 0 });
    const bulk = (body: unknown) =>
      fetch(`${woc}/addresses/history/all`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const unused = new PrivateKey(7).toAddress('testnet');
    expect(await (await bulk({ addresses: [payee.address, unused] })).json()).toEqual([
      {
        address: payee.address,
        script: Utils.toHex(Hash.sha256(new P2PKH().lock(payee.address).toBinary()).reverse()),
        unconfirmed: { result: [], error: '' },
        confirmed: { result: [{ tx_hash: paid.txid, height }], error: '' },
      },
      {
        address: unused,
        script: expect.stringMatching(/^[0-9a-f]{64}$/),
        unconfirmed: { result: [], error: '' },
        confirmed: { result: [], error: '' },
      },
    ]);
    for (const body of [{}, { addresses: [] }, { addresses: Array(21).fill(unused) }, { addresses: ['nope'] }, { addresses: [7] }])
      expect((await bulk(body)).status).toBe(422);

    const header = (await (await fetch(`${woc}/block/${height}/header`)).json()) as Record<string, unknown>;
    expect(header).toMatchObject({ hash: blocks[0]!.hash, height, bits: '207fffff', nTx: 2 });
    expect(await (await fetch(`${woc}/block/hash/${blocks[0]!.hash}`)).json()).toMatchObject({
      height,
      tx: [expect.any(String), paid.txid],
    });
    expect(((await (await fetch(`${woc}/block/headers`)).json()) as Array<{ height: number }>)[0]!.height).toBe(height);
    expect(await (await fetch(`${woc}/chain/info`)).json()).toMatchObject({
      chain: 'local',
      blocks: height,
      bestblockhash: blocks[0]!.hash,
    });
  });

  it('caps faucet requests and refuses what is not an address', async () => {
    const over = await post('/faucet', JSON.stringify({ address: newWallet().address, satoshis: 1_000_001 }), 'application/json');
    expect(over.status).toBe(422);
    expect(await over.json()).toEqual({ error: { code: 'validation_failed', message: 'satoshis must be an integer from 1 to 1000000' } });
    expect((await post('/faucet', JSON.stringify({ address: 'nope', satoshis: 1 }), 'application/json')).status).toBe(422);
    expect((await post('/mine', JSON.stringify({ blocks: 0 }), 'application/json')).status).toBe(422);
  });

  it('ends every JSON answer with a newline, so the faucet and mine lines the start prints to curl leave the prompt on a line of its own', async () => {
    const faucet = await post('/faucet', JSON.stringify({ address: newWallet().address, satoshis: 1_000 }), 'application/json');
    expect(await faucet.text()).toMatch(/^\{"txid":"[0-9a-f]{64}".*\}\n$/);
    expect(await (await post('/mine', '', 'application/json')).text()).toMatch(/\}\n$/);
    expect(await (await fetch(`${chain.running.url}/nowhere`)).text()).toMatch(/\}\n$/);
  });
});
