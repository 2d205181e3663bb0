import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { P2PKH, PrivateKey } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, fundedCustomer, payOutputs, startStack, type TestStack } from './support.js';

const WOC_KEY = 'woc-upstream-secret-0123456789';

/** A stand-in for the chain API: records what it was sent; answers by path. */
function fakeUpstream() {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    const path = request.url ?? '';
    if (path.endsWith('/chain/info'))
      return response
        .writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'upstream=1', 'x-upstream-secret': 'leak' })
        .end('{"blocks":7}');
    if (path.includes('/tx/hash/')) return response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    if (path.includes('/address/'))
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify('x'.repeat(5_000)));
    if (path.includes('/block/headers')) return response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    if (path.includes('/block/height/')) return response.writeHead(503).end('down');
    return response.writeHead(200).end('{}');
  });
  return {
    seen,
    server,
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
  };
}

let stack: TestStack;
let proxied: TestStack;
const upstream = fakeUpstream();
beforeAll(async () => {
  stack = await startStack();
  const port = await upstream.listen();
  proxied = await startStack({
    CHAIN_WOC_URL: `http://127.0.0.1:${port}/v1/bsv/test`,
    CHAIN_WOC_API_KEY: WOC_KEY,
    P2P_PASSTHROUGH_MAX_BYTES: '4096',
    CHAIN_RETRIES: '0',
  });
});
afterAll(async () => {
  await Promise.all([stack.close(), proxied.close()]);
  await new Promise((resolve) => upstream.server.close(resolve));
});

describe("wallet API: an address's spendable outputs and broadcasting what the caller signed", () => {
  it('lists the outputs the faucet paid an address, and broadcasts a transaction spending one', async () => {
    const customer = await fundedCustomer(stack.chain, 50_000);
    const address = customer.key.toAddress('testnet');
    const { utxos } = await stack.client.listUtxos({ address });
    expect(utxos).toEqual([{ txid: customer.source.id('hex'), vout: customer.vout, satoshis: 50_000n, height: undefined }]);
    const tx = await payOutputs(customer, [
      { script: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), satoshis: 10_000 },
    ]);
    expect(await stack.client.broadcastTransaction({ transaction: tx.toHex() })).toMatchObject({ txid: tx.id('hex'), state: 'seen' });
    expect((await stack.client.listUtxos({ address })).utxos.map((utxo) => utxo.txid)).toEqual([tx.id('hex')]);
  });

  it("passes the chain's refusal on (a double spend), and refuses what is not a transaction or not an address", async () => {
    const customer = await fundedCustomer(stack.chain, 50_000);
    const to = (satoshis: number) => [{ script: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), satoshis }];
    const first = await payOutputs(customer, to(1_000));
    const second = await payOutputs(customer, to(2_000));
    await stack.client.broadcastTransaction({ transaction: first.toHex() });
    expect(await failure(stack.client.broadcastTransaction({ transaction: second.toHex() }))).toMatchObject({
      code: 'chain_rejected',
      details: { tx_status: 'DOUBLE_SPEND_ATTEMPTED', competing_txs: [first.id('hex')] },
    });
    expect(await failure(stack.client.broadcastTransaction({ transaction: 'deadbeef' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'transaction' },
    });
    // The wallet API's transaction is whole hex bytes, nothing around them, at most 2,000,000 characters.
    for (const transaction of ['', 'xyz', 'abc', ` ${first.toHex()}`, 'ab'.repeat(1_000_001)]) {
      expect(await failure(stack.client.broadcastTransaction({ transaction }))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'transaction' },
      });
    }
    expect(await failure(stack.client.listUtxos({ address: 'not-an-address' }))).toMatchObject({ code: 'validation_failed' });
  });
});

describe('chain passthrough: allowlisted routes of the fixed chain API, limits, and no credential leaves', () => {
  it("serves allowlisted reads from the network's chain API and broadcasts through POST tx/raw", async () => {
    const info = await stack.client.chainPassthrough({ method: 'GET', path: 'chain/info' });
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body.toString())).toMatchObject({ blocks: expect.any(Number) });
    const customer = await fundedCustomer(stack.chain, 20_000);
    const tx = await payOutputs(customer, [
      { script: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), satoshis: 1_000 },
    ]);
    const sent = await stack.client.chainPassthrough({
      method: 'POST',
      path: 'tx/raw',
      body: Buffer.from(JSON.stringify({ txhex: tx.toHex() })),
      contentType: 'application/json',
    });
    expect({ status: sent.status, body: JSON.parse(sent.body.toString()) }).toEqual({ status: 200, body: tx.id('hex') });
    const hex = await stack.client.chainPassthrough({ method: 'GET', path: `tx/${tx.id('hex')}/hex` });
    expect(hex.body.toString()).toContain(tx.toHex());
  });

  it('refuses routes off the allowlist before anything is sent upstream: writes, other paths, traversal', async () => {
    const before = upstream.seen.length;
    for (const [method, path] of [
      ['GET', 'admin'],
      ['GET', '../../etc/passwd'],
      ['GET', 'chain/info/../../x'],
      ['POST', 'chain/info'],
      ['GET', 'tx/raw'],
      ['GET', `tx/hash/${'ab'.repeat(32)}?x=1`],
      ['DELETE', 'chain/info'],
    ] as const) {
      expect(await failure(proxied.client.chainPassthrough({ method, path })), `${method} ${path}`).toMatchObject({ code: 'not_found' });
    }
    expect(
      await failure(proxied.client.chainPassthrough({ method: 'POST', path: 'tx/raw', body: Buffer.from('{"hex": 1}') })),
    ).toMatchObject({ code: 'validation_failed' });
    expect(
      await failure(proxied.client.chainPassthrough({ method: 'POST', path: 'tx/raw', body: Buffer.from('{"txhex": "zz"}') })),
    ).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('"txhex"'), details: { field: 'txhex' } });
    expect(upstream.seen.length).toBe(before);
  });

  it('adds the upstream key itself, sends no caller headers or query, and passes on no upstream headers', async () => {
    const answer = await proxied.client.chainPassthrough({ method: 'GET', path: 'chain/info', query: 'apikey=mine' });
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(JSON.parse(answer.body.toString())).toEqual({ blocks: 7 });
    expect(Object.keys(answer)).toEqual(['status', 'contentType', 'body']);
    const request = upstream.seen.at(-1)!;
    expect(request.url).toBe('/v1/bsv/test/chain/info');
    expect(request.headers.authorization).toBe(WOC_KEY);
  });

  it('passes on an upstream 4xx as it came, and turns a redirect, a 5xx or an oversized answer into chain_unavailable without the key', async () => {
    const missing = await proxied.client.chainPassthrough({ method: 'GET', path: `tx/hash/${'ab'.repeat(32)}` });
    expect({ status: missing.status, type: missing.contentType, body: missing.body.toString() }).toEqual({
      status: 404,
      type: 'text/plain',
      body: 'Not Found',
    });
    const redirect = await failure(proxied.client.chainPassthrough({ method: 'GET', path: 'block/headers' }));
    expect(redirect).toMatchObject({ code: 'chain_unavailable', details: { status: 302 } });
    const down = await failure(proxied.client.chainPassthrough({ method: 'GET', path: 'block/height/5' }));
    expect(down).toMatchObject({ code: 'chain_unavailable', details: { status: 503 } });
    const big = await failure(
      proxied.client.chainPassthrough({ method: 'GET', path: `address/${PrivateKey.fromRandom().toAddress('testnet')}/unspent` }),
    );
    expect(big).toMatchObject({ code: 'chain_unavailable', details: { max_bytes: 4096 } });
    for (const error of [redirect, down, big]) expect(JSON.stringify(error)).not.toContain(WOC_KEY);
  });
});
